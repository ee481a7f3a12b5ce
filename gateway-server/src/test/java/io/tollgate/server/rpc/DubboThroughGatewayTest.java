package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.dubbo.rpc.RpcContext;
import org.apache.dubbo.rpc.RpcException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Real Apache Dubbo 3.3 consumers call real Dubbo providers through the gateway (dubbo protocol,
 * hessian2, direct URL to the gateway's Dubbo listener): answers, errors, timeouts, a killed
 * provider, unknown services, routing by group and version, and many concurrent async calls.
 */
class DubboThroughGatewayTest {

    private static final String INTERFACE = DubboEchoService.class.getName();
    private static final String CONFIG = """
            listeners:
              - name: dubbo
                port: 0
                protocols: [dubbo]
                route_config:
                  virtual_hosts:
                    - name: echo
                      domains: ["${INTERFACE}"]
                      routes:
                        - match: { prefix: /, headers: [{ name: group, exact: blue }] }
                          route: { cluster: blue }
                        - match: { prefix: /, headers: [{ name: group, exact: green }, { name: version, exact: "2.0" }] }
                          route: { cluster: green }
                        - match: { path: /${INTERFACE}/slow, headers: [{ name: route-timeout, present: true }] }
                          route: { cluster: main, timeout: 300ms }
                        - match: { prefix: / }
                          route: { cluster: main, timeout: 20s }
              - name: narrow
                port: 0
                protocols: [dubbo]
                route_config:
                  virtual_hosts:
                    - name: other
                      domains: ["demo.OtherService"]
                      routes: [{ match: { prefix: / }, route: { cluster: main } }]
            clusters:
              - name: main
                endpoints: [{ address: 127.0.0.1, port: ${MAIN} }]
              - name: blue
                endpoints: [{ address: 127.0.0.1, port: ${BLUE} }]
              - name: green
                endpoints: [{ address: 127.0.0.1, port: ${GREEN} }]
              - name: doomed
                endpoints: [{ address: 127.0.0.1, port: ${MAIN} }]
            """;

    private static final StartedResources started = new StartedResources();
    private static DubboProvider main;
    private static DubboProvider blue;
    private static DubboProvider green;
    private static TestGateway gateway;
    private static DubboConsumer consumer;

    @BeforeAll
    static void start() throws Exception {
        main = started.add(DubboProvider.named("main").start());
        blue = started.add(DubboProvider.named("blue").group("blue").version("1.0").start());
        green = started.add(DubboProvider.named("green").group("green").version("2.0").start());
        gateway = started.add(TestGateway.start(CONFIG, Map.of("INTERFACE", INTERFACE, "MAIN", main.port(),
                "BLUE", blue.port(), "GREEN", green.port())));
        consumer = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
    }

    @AfterAll
    static void stop() {
        started.close();
    }

    @Test
    void syncCallIsAnsweredByTheProvider() {
        assertThat(consumer.service().echo("hello")).isEqualTo("hello");
        assertThat(consumer.service().tagged("hello")).isEqualTo("main:hello");
    }

    @Test
    void kilobyteAndMegabyteArgumentsCrossWhole() {
        byte[] kilobyte = randomBytes(1024);
        byte[] megabyte = randomBytes(1024 * 1024);
        assertThat(consumer.service().echoBytes(kilobyte)).isEqualTo(kilobyte);
        assertThat(consumer.service().echoBytes(megabyte)).isEqualTo(megabyte);
    }

    @Test
    void asyncCallsComplete() throws Exception {
        assertThat(consumer.service().echoAsync("later").get(10, TimeUnit.SECONDS)).isEqualTo("later");
        try (DubboConsumer async = DubboConsumer.to(gateway.port("dubbo")).async().connect()) {
            assertThat(async.async(s -> s.echo("async")).get(10, TimeUnit.SECONDS)).isEqualTo("async");
        }
    }

    @Test
    void providersExceptionReachesTheConsumerWithItsMessage() {
        assertThatThrownBy(() -> consumer.service().fail("broken on purpose"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("broken on purpose");
    }

    @Test
    void consumersOwnTimeoutStillApplies() {
        try (DubboConsumer impatient = DubboConsumer.to(gateway.port("dubbo")).timeout(Duration.ofMillis(300))
                .connect()) {
            assertThatThrownBy(() -> impatient.service().slow("too slow", 3_000))
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isTimeout()).isTrue());
        }
    }

    @Test
    void routeTimeoutIsAnsweredByTheGatewayAsATimeout() {
        try (DubboConsumer patient = DubboConsumer.to(gateway.port("dubbo")).timeout(Duration.ofSeconds(20))
                .connect()) {
            long start = System.nanoTime();
            RpcContext.getClientAttachment().setAttachment("route-timeout", "yes");
            assertThatThrownBy(() -> patient.service().slow("too slow", 5_000))
                    .isInstanceOfSatisfying(RpcException.class, e -> {
                        assertThat(e.isTimeout()).isTrue();
                        assertThat(e).hasMessageContaining("tollgate: upstream timeout");
                    });
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        }
        assertThat(gateway.count("tollgate.upstream.rq.timeout", "cluster", "main")).isGreaterThanOrEqualTo(1);
    }

    @Test
    void unknownServiceIsAnsweredAtOnce() {
        try (DubboConsumer lost = DubboConsumer.to(gateway.port("narrow")).timeout(Duration.ofSeconds(20)).connect()) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> lost.service().echo("anyone?"))
                    .isInstanceOf(RpcException.class)
                    .hasMessageContaining("tollgate: no route");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        }
        assertThat(gateway.count("tollgate.downstream.rq.error", "listener", "narrow", "reason", "no_route"))
                .isEqualTo(1);
    }

    @Test
    void groupAndVersionRouteToTheirOwnProviders() {
        try (DubboConsumer toBlue = DubboConsumer.to(gateway.port("dubbo")).group("blue").version("1.0").connect();
                DubboConsumer toGreen = DubboConsumer.to(gateway.port("dubbo")).group("green").version("2.0")
                        .connect()) {
            int blueBefore = blue.service().calls();
            assertThat(toBlue.service().tagged("hi")).isEqualTo("blue:hi");
            assertThat(toGreen.service().tagged("hi")).isEqualTo("green:hi");
            assertThat(toBlue.service().tagged("again")).isEqualTo("blue:again");
            assertThat(blue.service().calls() - blueBefore).isEqualTo(2);
        }
    }

    @Test
    void thousandConcurrentAsyncCallsAllComeBack() throws Exception {
        try (DubboConsumer async = DubboConsumer.to(gateway.port("dubbo")).timeout(Duration.ofSeconds(20)).async()
                .connect()) {
            List<CompletableFuture<String>> answers = IntStream.range(0, 1000)
                    .mapToObj(i -> async.async(s -> s.echo("message-" + i))).toList();
            for (int i = 0; i < answers.size(); i++) {
                assertThat(answers.get(i).get(20, TimeUnit.SECONDS)).isEqualTo("message-" + i);
            }
        }
    }

    @Test
    void killedProviderFailsTheCallsInFlightAtOnce() throws Exception {
        try (DubboProvider doomed = DubboProvider.named("doomed").start();
                TestGateway own = TestGateway.start(CONFIG, Map.of("INTERFACE", INTERFACE, "MAIN", doomed.port(),
                        "BLUE", blue.port(), "GREEN", green.port()));
                DubboConsumer client = DubboConsumer.to(own.port("dubbo")).timeout(Duration.ofSeconds(20)).async()
                        .connect()) {
            List<CompletableFuture<String>> inFlight = IntStream.range(0, 3)
                    .mapToObj(i -> client.async(s -> s.slow("held-" + i, 10_000))).toList();
            Await.until("3 calls at the provider", Duration.ofSeconds(5), () -> doomed.service().calls() == 3);
            long start = System.nanoTime();
            doomed.kill();
            for (CompletableFuture<String> call : inFlight) {
                assertThatThrownBy(() -> call.get(5, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .hasMessageContaining("tollgate: upstream connection closed");
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
            assertThat(client.async(s -> s.echo("still connected?")))
                    .failsWithin(Duration.ofSeconds(5))
                    .withThrowableThat().withMessageContaining("tollgate: upstream connection closed");
        }
    }

    @Test
    void dubboHealthCheckKeepsAnsweringProvidersInRotationAndTakesDeadOnesOut() throws Exception {
        String config = """
                listeners:
                  - name: dubbo
                    port: 0
                    protocols: [dubbo]
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes: [{ match: { prefix: / }, route: { cluster: checked } }]
                clusters:
                  - name: checked
                    health_check: { type: dubbo, interval: 100ms, timeout: 500ms, unhealthy_threshold: 1 }
                    endpoints:
                      - { address: 127.0.0.1, port: ${LIVE} }
                      - { address: 127.0.0.1, port: ${DEAD} }
                """;
        int dead;
        try (java.net.ServerSocket closed = new java.net.ServerSocket(0)) {
            dead = closed.getLocalPort();
        }
        try (DubboProvider live = DubboProvider.named("live").start();
                TestGateway checked = TestGateway.start(config, Map.of("LIVE", live.port(), "DEAD", dead));
                DubboConsumer client = DubboConsumer.to(checked.port("dubbo")).connect()) {
            Await.until("the dead host out of rotation", Duration.ofSeconds(5),
                    () -> !checked.host("checked", dead).healthy() && checked.inRotation("checked").size() == 1);
            Await.until("two heartbeats answered by the live provider", Duration.ofSeconds(5),
                    () -> checked.count("tollgate.upstream.health_check.attempt", "cluster", "checked")
                            - checked.count("tollgate.upstream.health_check.failure", "cluster", "checked") >= 2);
            assertThat(checked.host("checked", live.port()).healthy()).isTrue();
            for (int i = 0; i < 10; i++) {
                assertThat(client.service().tagged("up?")).isEqualTo("live:up?");
            }
            assertThat(live.service().calls()).as("heartbeats are not calls").isEqualTo(10);
        }
    }

    @Test
    void attachmentsChooseTheSubsetOfHosts() throws Exception {
        String config = """
                listeners:
                  - name: dubbo
                    port: 0
                    protocols: [dubbo]
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes: [{ match: { prefix: / }, route: { cluster: zones } }]
                clusters:
                  - name: zones
                    endpoints:
                      - { address: 127.0.0.1, port: ${EAST}, labels: { zone: east } }
                      - { address: 127.0.0.1, port: ${WEST}, labels: { zone: west } }
                    subset_lb_config:
                      header_prefix: x-subset-
                      fallback_policy: ANY_ENDPOINT
                      subset_selectors: [{ keys: [zone] }]
                """;
        try (DubboProvider east = DubboProvider.named("east").start();
                DubboProvider west = DubboProvider.named("west").start();
                TestGateway zoned = TestGateway.start(config, Map.of("EAST", east.port(), "WEST", west.port()));
                DubboConsumer client = DubboConsumer.to(zoned.port("dubbo")).connect()) {
            for (int i = 0; i < 5; i++) {
                RpcContext.getClientAttachment().setAttachment("x-subset-zone", "west");
                assertThat(client.service().tagged("where")).isEqualTo("west:where");
                RpcContext.getClientAttachment().setAttachment("x-subset-zone", "east");
                assertThat(client.service().tagged("where")).isEqualTo("east:where");
            }
            assertThat(east.service().calls()).isEqualTo(5);
            assertThat(west.service().calls()).isEqualTo(5);
        }
    }

    private static byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }
}
