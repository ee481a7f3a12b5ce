package io.tollgate.server.upgrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.alipay.remoting.Connection;
import com.alipay.remoting.rpc.RpcClient;
import com.alipay.remoting.rpc.RpcServer;
import io.grpc.CallOptions;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.stub.ClientCalls;
import io.netty.channel.epoll.Epoll;
import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.rpc.DubboEchoService;
import io.tollgate.server.rpc.DubboProvider;
import io.tollgate.server.http2.EchoGrpc;
import io.tollgate.server.http2.EchoServer;
import io.tollgate.server.testing.BoltEchoServer;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.StartedResources;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hot restarts in a row under continuous load from real clients, each calling in a loop: the
 * JDK's HttpClient (HTTP/1.1 keep-alive), grpc-java (HTTP/2), sofa-bolt's RpcClient (SOFA Bolt)
 * and an Apache Dubbo consumer. No call fails and no client sees a connection error; the Bolt
 * client's connection moves from process to process and keeps its local port, and the HTTP/1.1 and
 * Dubbo ones move too; the gRPC one drains (GOAWAY) and the client reconnects. Between restarts
 * the configuration is reloaded four times, one of them invalid (refused, the last good one
 * serving): 20 reloads, 5 invalid, beside 5 restarts.
 */
class HotRestartUnderLoadTest {

    private static final int RESTARTS = 5;
    private static final int RELOADS_BETWEEN_RESTARTS = 4;
    private static final int CALLS_BETWEEN_RESTARTS = 20;
    private static final Duration EXIT_LIMIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    /**
     * Six gateway JVMs start and five exit in this one test: 39 s on a quiet 2-core host, 55-60 s
     * with one core kept busy, so the suite's 60 s default would time the machine. Every step has
     * its own bound (a start {@link GatewayProcess#awaitReady}, an exit {@link #EXIT_LIMIT}, each
     * wave of calls {@link ClientLoop#awaitEach}), and a step that overruns fails with its own
     * message; this limit only catches a hang between them.
     */
    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void restartsInARowUnderLoadFailNoCallAndMoveTheRpcConnections() throws Exception {
        assumeTrue(Epoll.isAvailable(), "hot restart needs native epoll, unavailable here: " + Epoll.unavailabilityCause());
        try (StartedResources started = new StartedResources()) {
            HttpUpstream http = started.add(new HttpUpstream());
            EchoServer grpc = started.add(new EchoServer());
            RpcServer boltServer = BoltEchoServer.start(FreePort.pick());
            started.add(boltServer::shutdown);
            DubboProvider dubbo = started.add(DubboProvider.named("main").start());
            int httpPort = FreePort.pick();
            int boltPort = FreePort.pick();
            int dubboPort = FreePort.pick();
            int adminPort = FreePort.pick();
            IntFunction<String> configWithRoute = route -> config(adminPort, httpPort, boltPort, dubboPort, http.port(),
                    grpc.port(), boltServer.port(), dubbo.port(), route);
            Path config = Files.writeString(dir.resolve("gateway.yaml"), configWithRoute.apply(0));
            Path socket = dir.resolve("upgrade.sock");
            List<GatewayProcess> processes = new ArrayList<>();
            processes.add(started.add(GatewayProcess.start(config, socket, false, dir.resolve("epoch-0.log")).awaitReady()));

            HttpClient httpClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/kept")).build();
            ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", httpPort,
                    InsecureChannelCredentials.create()).build();
            started.add(() -> channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
            RpcClient boltClient = new RpcClient();
            boltClient.startup();
            started.add(boltClient::shutdown);
            String boltAddress = "127.0.0.1:" + boltPort;
            DubboConsumer dubboConsumer = started.add(DubboConsumer.to(dubboPort).timeout(Duration.ofSeconds(10)).connect());
            DubboEchoService echo = dubboConsumer.service();

            List<ClientLoop> loops = List.of(
                    started.add(new ClientLoop("http/1.1", i -> httpClient.send(get, HttpResponse.BodyHandlers.ofString())
                            .statusCode() == 200)),
                    started.add(new ClientLoop("grpc", i -> ("g" + i).equals(ClientCalls.blockingUnaryCall(channel,
                            EchoGrpc.UNARY, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), "g" + i)))),
                    started.add(new ClientLoop("bolt", i -> ("echo:b" + i).equals(boltClient.invokeSync(boltAddress, "b" + i,
                            10_000)))),
                    started.add(new ClientLoop("dubbo", i -> ("d" + i).equals(echo.echo("d" + i)))));
            ClientLoop.awaitEach(CALLS_BETWEEN_RESTARTS, loops);
            Connection boltConnection = boltClient.getConnection(boltAddress, 1000);
            int boltLocalPort = boltConnection.getLocalPort();

            int reloads = 0;
            int refused = 0;
            for (int epoch = 1; epoch <= RESTARTS; epoch++) {
                for (int r = 0; r < RELOADS_BETWEEN_RESTARTS; r++) {
                    int route = epoch * 10 + r;
                    boolean invalid = r == RELOADS_BETWEEN_RESTARTS - 1;
                    String valid = configWithRoute.apply(route);
                    Files.writeString(config, invalid ? valid.replace("/reload-" + route + "/", "reload-" + route)
                            : valid);
                    int status = reload(httpClient, adminPort);
                    assertThat(status).as("reload %d (%s)", reloads, invalid ? "invalid" : "valid")
                            .isEqualTo(invalid ? 400 : 200);
                    reloads++;
                    refused += invalid ? 1 : 0;
                    Files.writeString(config, valid);
                    ClientLoop.awaitEach(CALLS_BETWEEN_RESTARTS / 4, loops);
                }
                GatewayProcess old = processes.get(processes.size() - 1);
                processes.add(started.add(GatewayProcess.start(config, socket, true, dir.resolve("epoch-" + epoch + ".log"))
                        .awaitReady()));
                assertThat(old.awaitExit(EXIT_LIMIT)).as("epoch %d exit", epoch - 1).isZero();
                ClientLoop.awaitEach(CALLS_BETWEEN_RESTARTS, loops);
            }

            for (ClientLoop loop : loops) {
                assertThat(loop.stop()).as(loop.toString()).isEmpty();
            }
            assertThat(reloads).isEqualTo(20);
            assertThat(refused).isEqualTo(5);
            assertThat(boltClient.getConnection(boltAddress, 1000)).isSameAs(boltConnection);
            assertThat(boltConnection.isFine()).isTrue();
            assertThat(boltConnection.getLocalPort()).isEqualTo(boltLocalPort);
            GatewayProcess last = processes.get(processes.size() - 1);
            assertThat(last.output()).contains("restart epoch " + RESTARTS);
            String prometheus = GatewayProcess.prometheus(httpClient, adminPort);
            assertThat(counter(prometheus, "adopted")).as("connections adopted, carried over all epochs")
                    .isGreaterThanOrEqualTo(3.0 * RESTARTS);
            assertThat(counter(prometheus, "lost")).isZero();
            last.close();
            for (GatewayProcess process : processes) {
                process.assertNoLeak();
            }
        }
    }

    /** Asks the gateway on {@code adminPort} to read its file again; its HTTP status. */
    private static int reload(HttpClient client, int adminPort) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/config/reload"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    private static double counter(String prometheus, String event) {
        Matcher m = Pattern.compile("tollgate_hot_restart_connections_total\\{event=\"" + event + "\"} (\\S+)")
                .matcher(prometheus);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    /** The gateway's configuration; {@code route} names one more HTTP route, so that reloads change something. */
    private static String config(int adminPort, int httpPort, int boltPort, int dubboPort, int http, int grpc, int bolt,
            int dubbo, int route) {
        return """
                admin: { address: 127.0.0.1, port: %d }
                event_loops: 2
                listeners:
                  - name: http
                    address: 127.0.0.1
                    port: %d
                    protocols: [http1, h2c]
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes:
                            - { match: { prefix: /test.Echo/ }, route: { cluster: grpc } }
                            - { match: { prefix: /reload-%d/ }, route: { cluster: http } }
                            - { match: { prefix: / }, route: { cluster: http } }
                  - name: bolt
                    address: 127.0.0.1
                    port: %d
                    protocols: [bolt]
                    route_config:
                      virtual_hosts:
                        - { name: all, domains: ["*"], routes: [ { match: { prefix: / }, route: { cluster: bolt } } ] }
                  - name: dubbo
                    address: 127.0.0.1
                    port: %d
                    protocols: [dubbo]
                    route_config:
                      virtual_hosts:
                        - { name: all, domains: ["*"], routes: [ { match: { prefix: / }, route: { cluster: dubbo } } ] }
                clusters:
                  - name: http
                    endpoints: [ { address: 127.0.0.1, port: %d } ]
                  - name: grpc
                    protocol: h2
                    endpoints: [ { address: 127.0.0.1, port: %d } ]
                  - name: bolt
                    endpoints: [ { address: 127.0.0.1, port: %d } ]
                  - name: dubbo
                    endpoints: [ { address: 127.0.0.1, port: %d } ]
                """.formatted(adminPort, httpPort, route, boltPort, dubboPort, http, grpc, bolt, dubbo);
    }
}
