package io.tollgate.server.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.rpc.DubboProvider;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.RawUpstream;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code mirror} filter with a real Dubbo consumer and providers: calls copied to a shadow
 * provider, and the primary's answers unaffected when the shadow is down or never answers.
 */
class MirrorDubboTest {

    private static final String ROUTES =
            "{ virtual_hosts: [ { name: all, domains: ['*'], routes: [ { match: { prefix: / }, route: { cluster: main, timeout: 500ms } } ] } ] }";
    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: shadowed
                port: 0
                protocols: [dubbo]
                filters: [ { name: mirror, cluster: shadow } ]
                route_config: ${ROUTES}
              - name: down
                port: 0
                protocols: [dubbo]
                filters: [ { name: mirror, cluster: down } ]
                route_config: ${ROUTES}
              - name: silent
                port: 0
                protocols: [dubbo]
                filters: [ { name: mirror, cluster: silent } ]
                route_config: ${ROUTES}
            clusters:
              - name: main
                endpoints: [ { address: 127.0.0.1, port: ${MAIN} } ]
              - name: shadow
                endpoints: [ { address: 127.0.0.1, port: ${SHADOW} } ]
              - name: down
                endpoints: [ { address: 127.0.0.1, port: ${DOWN} } ]
              - name: silent
                endpoints: [ { address: 127.0.0.1, port: ${SILENT} } ]
            """;

    private static final StartedResources started = new StartedResources();
    private static DubboProvider main;
    private static DubboProvider shadow;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        main = started.add(DubboProvider.named("main").start());
        shadow = started.add(DubboProvider.named("shadow").start());
        RawUpstream silent = started.add(new RawUpstream(socket -> socket.getInputStream()
                .transferTo(OutputStream.nullOutputStream())));
        gateway = started.add(TestGateway.start(CONFIG.replace("${ROUTES}", ROUTES), Map.of("MAIN", main.port(),
                "SHADOW", shadow.port(), "DOWN", FreePort.pick(), "SILENT", silent.port())));
    }

    @AfterAll
    static void stop() {
        started.close();
    }

    @Test
    void callsAreCopiedToTheShadowProvider() throws InterruptedException {
        try (DubboConsumer consumer = DubboConsumer.to(gateway.port("shadowed")).connect()) {
            for (int i = 0; i < 5; i++) {
                assertThat(consumer.service().tagged("call-" + i)).isEqualTo("main:call-" + i);
            }
        }
        Await.until("5 copies at the shadow provider", Duration.ofSeconds(5), () -> shadow.service().calls() == 5);
        Await.until("5 copies counted sent", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.filter.mirror.sent", "cluster", "shadow") == 5);
        assertThat(gateway.count("tollgate.upstream.rq", "cluster", "shadow")).isEqualTo(5);
    }

    @Test
    void shadowDownOrSilentLeavesEveryAnswerIntact() throws InterruptedException {
        try (DubboConsumer down = DubboConsumer.to(gateway.port("down")).connect()) {
            for (int i = 0; i < 5; i++) {
                assertThat(down.service().tagged("down-" + i)).isEqualTo("main:down-" + i);
            }
        }
        try (DubboConsumer silent = DubboConsumer.to(gateway.port("silent")).connect()) {
            for (int i = 0; i < 5; i++) {
                assertThat(silent.service().tagged("silent-" + i)).isEqualTo("main:silent-" + i);
            }
        }
        Await.until("5 failed copies to the down shadow", Duration.ofSeconds(5),
                () -> gateway.count("tollgate.filter.mirror.failed", "cluster", "down") == 5);
        Await.until("5 timed-out copies to the silent shadow", Duration.ofSeconds(10),
                () -> gateway.count("tollgate.filter.mirror.failed", "cluster", "silent") == 5);
    }
}
