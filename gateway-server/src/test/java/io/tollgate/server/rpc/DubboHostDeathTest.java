package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One of two Apache Dubbo providers dies: calls that find its connect refused were never sent,
 * and go to the survivor at once without taking a retry, whatever the retry breaker allows.
 */
class DubboHostDeathTest {

    private static final String CONFIG = GatewayYaml.gateway(1, """
            name: dubbo
            protocols: [dubbo]
            """, """
            - match: { prefix: / }
              route:
                cluster: providers
                retry_policy: { retry_on: [connect-failure, reset], num_retries: 2 }
            """, """
            clusters:
              - name: providers
                endpoints: [{ address: 127.0.0.1, port: ${A} }, { address: 127.0.0.1, port: ${B} }]
            """);
    private static final int CALLS = 32;

    private final StartedResources started = new StartedResources();

    @AfterEach
    void stop() throws Exception {
        started.close();
    }

    @Test
    void callsNeverSentToADeadProviderAreServedByTheOtherWithoutRetries() throws Exception {
        DubboProvider a = started.add(DubboProvider.named("a").start());
        DubboProvider b = started.add(DubboProvider.named("b").start());
        TestGateway gateway = started.add(TestGateway.start(CONFIG, Map.of("A", a.port(), "B", b.port())));
        DubboConsumer consumer = started.add(DubboConsumer.to(gateway.port("dubbo")).async().connect());
        for (int i = 0; a.service().calls() == 0 || b.service().calls() == 0; i++) {
            assertThat(i).as("both providers reached").isLessThan(100);
            consumer.async(s -> s.tagged("warm")).get();
        }
        a.kill();
        Await.until("the gateway saw the dead provider's connection close", Duration.ofSeconds(10),
                () -> gateway.gateway().metrics().registry().find("tollgate.upstream.cx.active")
                        .tag("cluster", "providers").gauge().value() == 1);

        List<CompletableFuture<String>> calls = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
            calls.add(consumer.async(s -> s.tagged("burst")));
        }

        assertThat(calls).extracting(CompletableFuture::join).as("every call, whichever provider it was sent to first")
                .allSatisfy(answer -> assertThat(answer).startsWith("b"));
        assertThat(gateway.count("tollgate.upstream.rq.retry", "cluster", "providers")).isZero();
        assertThat(gateway.count("tollgate.upstream.rq.redispatch", "cluster", "providers")).isPositive();
    }
}
