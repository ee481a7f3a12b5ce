package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.bolt.BoltStatus;
import io.tollgate.router.host.Host;
import io.tollgate.server.testing.BackloggedPort;
import io.tollgate.server.testing.TestGateway;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * How Bolt calls end when their client leaves or their upstream connection is slow to come up,
 * over real sockets: nothing is left behind, and nothing is sent for a call that already ended.
 */
class BoltCallEndingTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: bolt
                port: 0
                protocols: [bolt]
                route_config:
                  virtual_hosts:
                    - name: held
                      domains: ["held.service:1.0"]
                      routes: [{ match: { prefix: / }, route: { cluster: held, timeout: 60s } }]
                    - name: backlogged
                      domains: ["backlogged.service:1.0"]
                      routes: [{ match: { prefix: / }, route: { cluster: backlogged, timeout: 10s } }]
            clusters:
              - name: held
                endpoints: [{ address: 127.0.0.1, port: ${HELD} }]
              - name: backlogged
                connect_timeout: 10s
                endpoints: [{ address: 127.0.0.1, port: ${BACKLOGGED} }]
            """;

    private static EventLoopGroup group;
    private static HoldingBoltUpstream held;
    private static BackloggedPort backlogged;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        held = new HoldingBoltUpstream(group, true);
        backlogged = new BackloggedPort();
        gateway = TestGateway.start(CONFIG, Map.of("HELD", held.port(), "BACKLOGGED", backlogged.port()));
    }

    @AfterAll
    static void stop() throws IOException {
        if (gateway != null) {
            gateway.close();
        }
        held.close();
        backlogged.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void callsOfAClientThatLeftEndAtOnceAndTheirLateResponsesAreDropped() throws Exception {
        Host host = gateway.host("held", held.port());
        int before = held.requests();
        try (RawBoltClient client = new RawBoltClient(group, gateway.port("bolt"))) {
            for (int id = 1; id <= 3; id++) {
                client.send(BoltFrames.request(id, false, 60_000,
                        Map.of("service", "held.service:1.0", "sofa_head_method_name", "hold"), "held " + id));
            }
            assertThat(Conditions.within(Duration.ofSeconds(5), () -> held.requests() == before + 3)).isTrue();
            assertThat(host.activeRequests()).isEqualTo(3);
        }

        assertThat(Conditions.within(Duration.ofSeconds(2), () -> host.activeRequests() == 0)).isTrue();
        held.answerHeld();

        assertThat(Conditions.within(Duration.ofSeconds(5),
                () -> gateway.count("tollgate.upstream.rq.late", "cluster", "held") == 3)).isTrue();
    }

    @Test
    void requestThatTimesOutWhileItsConnectionIsBeingMadeIsNeverSent() throws Exception {
        backlogged.fill();
        try (RawBoltClient client = new RawBoltClient(group, gateway.port("bolt"))) {
            client.send(BoltFrames.request(1, false, 200,
                    Map.of("service", "backlogged.service:1.0", "sofa_head_method_name", "echo"), "first"));
            assertThat(client.next(3000)).isEqualTo(
                    new RawBoltClient.Received(BoltFrame.Kind.RESPONSE, 1, BoltStatus.TIMEOUT.code()));
            client.send(BoltFrames.request(2, false, 10_000,
                    Map.of("service", "backlogged.service:1.0", "sofa_head_method_name", "echo"), "second"));

            backlogged.drain();
            backlogged.server().setSoTimeout(5000);
            try (Socket fromGateway = backlogged.server().accept()) {
                assertThat(firstFrameBody(fromGateway)).isEqualTo("second");
            }
        }
    }

    /** Reads one v1 request frame and returns its content as text. */
    private static String firstFrameBody(Socket socket) throws IOException {
        socket.setSoTimeout(5000);
        return new String(BoltFrames.readRequestContent(new DataInputStream(socket.getInputStream())),
                StandardCharsets.UTF_8);
    }
}
