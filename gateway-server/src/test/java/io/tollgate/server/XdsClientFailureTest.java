package io.tollgate.server;

import static io.tollgate.server.EnvoyResources.rdsListener;
import static io.tollgate.server.EnvoyResources.routes;
import static io.tollgate.server.EnvoyResources.staticCluster;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.core.extension.ExtensionRegistry;
import io.tollgate.core.metrics.MetricNames;
import io.tollgate.server.testing.Await;
import io.tollgate.xds.transport.XdsClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The xDS client when applying a response fails with an {@link Error} rather than an exception (a
 * listener whose native transport cannot load, say): the response is refused with a NACK naming
 * the error, the stream stays up (no reconnection loop), and the control thread goes on to apply
 * the next good response.
 */
class XdsClientFailureTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);

    @Test
    void anErrorWhileApplyingIsNackedAndTheStreamAndControlThreadCarryOn() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        AtomicBoolean failing = new AtomicBoolean(true);
        AtomicReference<GatewayConfig> applied = new AtomicReference<>();
        XdsClient.ConfigSink sink = config -> {
            if (failing.get()) {
                throw new NoClassDefFoundError("io/netty/channel/epoll/Native");
            }
            applied.set(config);
            return CompletableFuture.completedFuture(null);
        };
        try (ControlPlane controlPlane = new ControlPlane()) {
            controlPlane.push("1", List.of(staticCluster("app", 9)), List.of(), List.of(rdsListener("web", 0, "r")),
                    List.of(routes("r", Map.of("/", "app"))));
            XdsClient client = XdsClient.start(ConfigLoader.parse(controlPlane.bootstrap()), ExtensionRegistry.defaults(),
                    meters, sink, () -> { });
            try {
                Await.until("three NACKs, or the stream ended", LIMIT,
                        () -> controlPlane.nacks().size() >= 3 || streamsEnded(meters) > 0);
                assertThat(streamsEnded(meters)).as("the stream stays up").isZero();
                assertThat(controlPlane.nacks().get(0).getErrorDetail().getMessage())
                        .contains("cannot be applied", "NoClassDefFoundError", "io/netty/channel/epoll/Native");

                failing.set(false);
                controlPlane.push("2", List.of(staticCluster("app", 10)), List.of(), List.of(rdsListener("web", 0, "r")),
                        List.of(routes("r", Map.of("/", "app"))));
                Await.until("version 2 applied", LIMIT, client::initialized);
                assertThat(applied.get().listeners()).extracting(ListenerConfig::name).containsExactly("web");
                assertThat(streamsEnded(meters)).isZero();
            } finally {
                client.close();
            }
        }
    }

    private static double streamsEnded(SimpleMeterRegistry meters) {
        return meters.counter(MetricNames.XDS_STREAM_ENDED).count();
    }
}
