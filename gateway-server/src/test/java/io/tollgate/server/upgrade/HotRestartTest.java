package io.tollgate.server.upgrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.epoll.Epoll;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.RawHttp;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tollgate run --upgrade}: the new process takes the running one's listening and admin
 * sockets and counters, and the old one retires; a new process that fails leaves the old one
 * serving. Gateways run as child JVMs, as in production.
 */
class HotRestartTest {

    private static final Duration EXIT_LIMIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private HttpUpstream upstream;
    private HttpClient client;
    private int port;
    private int adminPort;
    private Path socket;

    @BeforeEach
    void setUp() throws IOException {
        assumeTrue(Epoll.isAvailable(), "hot restart needs native epoll, unavailable here: " + Epoll.unavailabilityCause());
        upstream = new HttpUpstream();
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        port = FreePort.pick();
        adminPort = FreePort.pick();
        socket = dir.resolve("upgrade.sock");
    }

    @AfterEach
    void tearDown() {
        if (upstream != null) {
            upstream.close();
        }
    }

    @Test
    void theNewProcessServesOnTheHandedOverSocketsAndNoConnectionIsRefused() throws Exception {
        Path config = config("gateway.yaml", "");
        try (GatewayProcess old = GatewayProcess.start(config, socket, false, dir.resolve("old.log")).awaitReady();
                ClientLoop fresh = new ClientLoop("new connection per request", i -> freshConnectionGet());
                ClientLoop kept = new ClientLoop("keep-alive", i -> get("/kept").statusCode() == 200)) {
            ClientLoop.awaitEach(20, List.of(fresh, kept));
            try (GatewayProcess next = GatewayProcess.start(config, socket, true, dir.resolve("next.log")).awaitReady()) {
                assertThat(old.awaitExit(EXIT_LIMIT)).isZero();
                ClientLoop.awaitEach(20, List.of(fresh, kept));
                assertThat(fresh.stop()).isEmpty();
                assertThat(kept.stop()).isEmpty();
                assertThat(next.output()).contains("restart epoch 1").contains("listener http took over");
                assertThat(get("/after").statusCode()).isEqualTo(200);
                assertThat(admin("/ready").statusCode()).isEqualTo(200);
                assertThat(GatewayProcess.prometheus(client, adminPort))
                        .contains("tollgate_hot_restart_connections_total{event=\"adopted\"}");
                old.assertNoLeak();
                next.close();
                next.assertNoLeak();
            }
        }
    }

    @Test
    void aNewProcessThatFailsToStartLeavesTheOldOneServing() throws Exception {
        Path config = config("gateway.yaml", "");
        try (GatewayProcess old = GatewayProcess.start(config, socket, false, dir.resolve("old.log")).awaitReady();
                ClientLoop kept = new ClientLoop("keep-alive", i -> get("/kept").statusCode() == 200);
                ClientLoop fresh = new ClientLoop("new connection per request", i -> freshConnectionGet());
                java.net.ServerSocket taken = new java.net.ServerSocket(0)) {
            ClientLoop.awaitEach(20, List.of(fresh, kept));
            Path invalid = Files.writeString(dir.resolve("invalid.yaml"), "listeners: [ { name: http, port: -1 } ]\n");
            try (GatewayProcess bad = GatewayProcess.start(invalid, socket, true, dir.resolve("invalid.log"))) {
                assertThat(bad.awaitExit(EXIT_LIMIT)).isEqualTo(2);
            }
            Path unbindable = config("unbindable.yaml", """
                      - name: taken
                        address: 127.0.0.1
                        port: %d
                        route_config:
                          virtual_hosts:
                            - { name: all, domains: ["*"], routes: [ { match: { prefix: / }, route: { cluster: app } } ] }
                    """.formatted(taken.getLocalPort()));
            try (GatewayProcess failing = GatewayProcess.start(unbindable, socket, true, dir.resolve("failing.log"))) {
                assertThat(failing.awaitExit(EXIT_LIMIT)).isNotZero();
                assertThat(failing.output()).contains("hot restart abandoned");
            }
            ClientLoop.awaitEach(20, List.of(fresh, kept));
            assertThat(old.isAlive()).isTrue();
            assertThat(old.output()).contains("serves on as before");
            assertThat(fresh.stop()).isEmpty();
            assertThat(kept.stop()).isEmpty();

            try (GatewayProcess next = GatewayProcess.start(config, socket, true, dir.resolve("next.log")).awaitReady()) {
                assertThat(old.awaitExit(EXIT_LIMIT)).isZero();
                assertThat(get("/after").statusCode()).isEqualTo(200);
            }
        }
    }

    @Test
    void countersCarryOverSoThatTheNewProcessCountsEveryRequestOfBoth() throws Exception {
        Path config = config("gateway.yaml", "");
        try (GatewayProcess old = GatewayProcess.start(config, socket, false, dir.resolve("old.log")).awaitReady()) {
            for (int i = 0; i < 7; i++) {
                assertThat(get("/before").statusCode()).isEqualTo(200);
            }
            try (GatewayProcess next = GatewayProcess.start(config, socket, true, dir.resolve("next.log")).awaitReady()) {
                assertThat(old.awaitExit(EXIT_LIMIT)).isZero();
                for (int i = 0; i < 5; i++) {
                    assertThat(get("/after").statusCode()).isEqualTo(200);
                }
                assertThat(requestsCounted()).isEqualTo(12);
            }
        }
    }

    @Test
    void aKeepAliveConnectionBusyDuringTheSwitchMovesOnceItsResponseIsSent() throws Exception {
        slowUpstream();
        Path config = config("gateway.yaml", "");
        try (GatewayProcess old = GatewayProcess.start(config, socket, false, dir.resolve("old.log")).awaitReady();
                RawHttp connection = new RawHttp(port)) {
            connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
            try (GatewayProcess next = GatewayProcess.start(config, socket, true, dir.resolve("next.log")).awaitReady()) {
                RawHttp.Response slow = connection.read(false);
                assertThat(slow.status()).isEqualTo(200);
                assertThat(slow.header("connection")).isNull();
                assertThat(old.awaitExit(EXIT_LIMIT)).isZero();

                RawHttp.Response after = connection.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n").read(false);

                assertThat(after.status()).isEqualTo(200);
                assertThat(GatewayProcess.prometheus(client, adminPort))
                        .contains("tollgate_hot_restart_connections_total{event=\"adopted\"} 1.0");
            }
        }
    }

    @Test
    void aConnectionWhoseClientCameInAProxyProtocolHeaderDrainsInsteadOfMoving() throws Exception {
        slowUpstream();
        int proxiedPort = FreePort.pick();
        Path config = config("gateway.yaml", """
                  - name: proxied
                    address: 127.0.0.1
                    port: %d
                    proxy_protocol: { mode: required, trusted_sources: [127.0.0.1/32] }
                    route_config:
                      virtual_hosts:
                        - { name: all, domains: ["*"], routes: [ { match: { prefix: / }, route: { cluster: app } } ] }
                """.formatted(proxiedPort));
        try (GatewayProcess old = GatewayProcess.start(config, socket, false, dir.resolve("old.log")).awaitReady();
                RawHttp connection = new RawHttp(proxiedPort)) {
            connection.send("PROXY TCP4 192.0.2.7 198.51.100.1 56324 443\r\nGET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
            try (GatewayProcess next = GatewayProcess.start(config, socket, true, dir.resolve("next.log")).awaitReady()) {
                RawHttp.Response slow = connection.read(false);
                assertThat(slow.status()).isEqualTo(200);
                assertThat(connection.closedByServer()).as("drained, not moved: the next process would not know its client")
                        .isTrue();
                assertThat(old.awaitExit(EXIT_LIMIT)).isZero();
                assertThat(GatewayProcess.prometheus(client, adminPort))
                        .doesNotContain("tollgate_hot_restart_connections_total{event=\"adopted\"} 1.0");
            }
        }
    }

    /** {@code /slow} answers after 1.5 s: a request still in flight while the processes switch. */
    private void slowUpstream() {
        upstream.handle("/slow", exchange -> {
            try {
                Thread.sleep(1500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(200, 4);
            exchange.getResponseBody().write("slow".getBytes(StandardCharsets.US_ASCII));
            exchange.close();
        });
    }

    @Test
    void onNioTheUpgradeSaysItNeedsEpoll() throws Exception {
        Path config = config("gateway.yaml", "");
        try (GatewayProcess nio = GatewayProcess.start(config, socket, true, dir.resolve("nio.log"),
                List.of("-Dio.netty.transport.noNative=true"))) {
            assertThat(nio.awaitExit(EXIT_LIMIT)).isEqualTo(1);
            assertThat(nio.output()).contains("cannot upgrade: --upgrade needs the native epoll transport");
        }
    }

    @Test
    void withoutARunningGatewayTheUpgradeSaysSo() throws Exception {
        Path config = config("gateway.yaml", "");
        try (GatewayProcess lonely = GatewayProcess.start(config, socket, true, dir.resolve("lonely.log"))) {
            assertThat(lonely.awaitExit(EXIT_LIMIT)).isEqualTo(1);
            assertThat(lonely.output()).contains("cannot upgrade: no running gateway answers at " + socket);
        }
    }

    private double requestsCounted() throws IOException, InterruptedException {
        Matcher m = Pattern.compile("tollgate_downstream_rq_total\\{[^}]*status_class=\"2xx\"[^}]*} (\\S+)")
                .matcher(GatewayProcess.prometheus(client, adminPort));
        assertThat(m.find()).as("the 2xx request counter").isTrue();
        return Double.parseDouble(m.group(1));
    }

    private Path config(String name, String moreListeners) throws IOException {
        return Files.writeString(dir.resolve(name), """
                admin: { address: 127.0.0.1, port: %d }
                event_loops: 2
                listeners:
                  - name: http
                    address: 127.0.0.1
                    port: %d
                    route_config:
                      virtual_hosts:
                        - { name: all, domains: ["*"], routes: [ { match: { prefix: / }, route: { cluster: app } } ] }
                %s
                clusters:
                  - name: app
                    endpoints: [ { address: 127.0.0.1, port: %d } ]
                """.formatted(adminPort, port, moreListeners, upstream.port()));
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> admin(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** One request on a connection of its own, which the client closes after the response. */
    private boolean freshConnectionGet() throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write("GET /fresh HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            return response.startsWith("HTTP/1.1 200");
        }
    }
}
