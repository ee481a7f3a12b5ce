package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.bolt.BoltStatus;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.BackloggedPort;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A cluster's circuit breakers for Bolt over real sockets: a call past a limit is answered at once
 * with server busy (status 4) under the caller's id, counted, and flagged {@code UO} in the access
 * log; the breakers of each priority count apart.
 */
class BoltCircuitBreakerTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: bolt
                port: 0
                protocols: [bolt]
                access_log: { path: "${LOG}" }
                route_config:
                  virtual_hosts:
                    - name: urgent
                      domains: ["urgent.service:1.0"]
                      routes: [{ match: { prefix: / }, route: { cluster: guarded, priority: high } }]
                    - name: all
                      domains: ["*"]
                      routes: [{ match: { prefix: / }, route: { cluster: guarded } }]
            clusters:
              - name: guarded
                connect_timeout: 10s
                connections_per_host: 2
                circuit_breakers: ${BREAKERS}
                endpoints: [{ address: 127.0.0.1, port: ${PORT} }]
            """;

    private EventLoopGroup group;
    private HoldingBoltUpstream upstream;
    private TestGateway gateway;
    private RawBoltClient client;
    private Path accessLog;

    @BeforeEach
    void startUpstream() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        upstream = new HoldingBoltUpstream(group, true);
        accessLog = Files.createTempFile("bolt-breakers", ".log");
    }

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        upstream.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        Files.deleteIfExists(accessLog);
    }

    @Test
    void aCallPastMaxRequestsIsAnsweredServerBusyAtOnceAndFlagged() throws Exception {
        start("{ max_requests: 1 }", upstream.port());
        client.send(BoltFrames.request(1, "any.Service:1.0", "held"));
        Await.until("the first call held upstream", LIMIT, () -> upstream.requests() == 1);

        client.send(BoltFrames.request(2, "any.Service:1.0", "overflowing"));

        assertThat(client.next(2000)).isEqualTo(answer(2, BoltStatus.SERVER_THREADPOOL_BUSY));
        assertThat(upstream.requests()).as("the overflowing call never went upstream").isEqualTo(1);
        assertThat(gateway.count("tollgate.upstream.rq.overflow", "cluster", "guarded")).isEqualTo(1);
        Await.until("the access log line of the overflow", LIMIT, () -> read(accessLog).contains("\" 503 UO "));
        upstream.answerHeld();
        assertThat(client.next(5000)).isEqualTo(answer(1, BoltStatus.SUCCESS));
        client.send(BoltFrames.request(3, "any.Service:1.0", "after"));
        Await.until("the call after held upstream", LIMIT, () -> upstream.requests() == 2);
        upstream.answerHeld();
        assertThat(client.next(5000)).as("the breaker closes again").isEqualTo(answer(3, BoltStatus.SUCCESS));
    }

    @Test
    void highPriorityCallsFlowWhileTheDefaultPriorityOverflows() throws Exception {
        start("""
                { thresholds: [{ priority: default, max_requests: 1 }, { priority: high, max_requests: 1 }] }""",
                upstream.port());
        client.send(BoltFrames.request(1, "any.Service:1.0", "held"));
        Await.until("the default call held upstream", LIMIT, () -> upstream.requests() == 1);

        client.send(BoltFrames.request(2, "any.Service:1.0", "overflowing"));
        assertThat(client.next(2000)).isEqualTo(answer(2, BoltStatus.SERVER_THREADPOOL_BUSY));
        client.send(BoltFrames.request(3, "urgent.service:1.0", "urgent"));

        Await.until("the high-priority call reaching the upstream", LIMIT, () -> upstream.requests() == 2);
        client.send(BoltFrames.request(4, "urgent.service:1.0", "urgent overflowing"));
        assertThat(client.next(2000)).as("high has limits of its own")
                .isEqualTo(answer(4, BoltStatus.SERVER_THREADPOOL_BUSY));
        upstream.answerHeld();
        assertThat(client.next(5000).status()).isEqualTo(BoltStatus.SUCCESS.code());
        assertThat(client.next(5000).status()).isEqualTo(BoltStatus.SUCCESS.code());
    }

    @Test
    void aCallWaitingForAConnectionPastMaxPendingIsAnsweredServerBusy() throws Exception {
        try (BackloggedPort backlogged = new BackloggedPort().fill()) {
            start("{ max_pending_requests: 1 }", backlogged.port());
            client.send(BoltFrames.request(1, "any.Service:1.0", "waiting"));
            client.send(BoltFrames.request(2, "any.Service:1.0", "overflowing"));

            assertThat(client.next(2000)).isEqualTo(answer(2, BoltStatus.SERVER_THREADPOOL_BUSY));
            assertThat(gateway.count("tollgate.upstream.rq.pending_overflow", "cluster", "guarded")).isEqualTo(1);
            client.close();
            client = null;
            gateway.close();
            gateway = null;
        }
    }

    @Test
    void pastMaxConnectionsCallsShareTheConnectionsOpen() throws Exception {
        start("{ max_connections: 1 }", upstream.port());
        for (int id = 1; id <= 3; id++) {
            client.send(BoltFrames.request(id, "any.Service:1.0", "call " + id));
        }

        Await.until("every call held upstream", LIMIT, () -> upstream.requests() == 3);
        assertThat(upstream.openConnections()).as("connections_per_host would allow 2").isEqualTo(1);
        assertThat(gateway.count("tollgate.upstream.cx.overflow", "cluster", "guarded")).isPositive();
        upstream.answerHeld();
        for (int i = 0; i < 3; i++) {
            assertThat(client.next(5000).status()).isEqualTo(BoltStatus.SUCCESS.code());
        }
    }

    private static RawBoltClient.Received answer(int id, BoltStatus status) {
        return new RawBoltClient.Received(BoltFrame.Kind.RESPONSE, id, status.code());
    }

    private void start(String breakers, int port) throws InterruptedException {
        gateway = TestGateway.start(CONFIG, Map.of("BREAKERS", breakers, "PORT", port, "LOG", accessLog));
        client = new RawBoltClient(group, gateway.port("bolt"));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
