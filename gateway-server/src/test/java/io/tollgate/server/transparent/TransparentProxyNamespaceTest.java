package io.tollgate.server.transparent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import io.tollgate.server.testing.Await;
import io.tollgate.server.upgrade.GatewayProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transparent proxying end to end, as docs/transparent-proxy.md sets it up: a client in network
 * namespace {@code client} sends to {@code 198.18.1.1}, an address that only exists beyond the
 * gateway's namespace; there iptables {@code TPROXY} hands the connection to a transparent
 * listener, and the {@code original_dst} cluster sends it on to where it was going: this JVM, in
 * the root namespace, where the upstreams listen. The gateway runs as a child JVM under {@code ip
 * netns exec} (a JVM cannot enter a namespace), the client is curl or bash under {@code ip netns
 * exec}. Needs root (CAP_NET_ADMIN), {@code ip}, {@code iptables} with the TPROXY target, curl and
 * bash; skipped with the reason otherwise. The namespaces and links are removed after.
 */
class TransparentProxyNamespaceTest {

    private static final String ORIGINAL = "198.18.1.1";
    private static final String GATEWAY_UPLINK = "198.18.1.2";
    private static final String CLIENT = "198.18.0.2";
    private static final String SUFFIX = Long.toString(ProcessHandle.current().pid() % 100_000);
    private static final String GATEWAY_NS = "tgw" + SUFFIX;
    private static final String CLIENT_NS = "tcl" + SUFFIX;
    private static final String ROOT_LINK = "tgr" + SUFFIX;
    private static final int TCP_LISTENER = 15001;
    private static final int HTTP_LISTENER = 15002;

    @TempDir
    static Path dir;
    private static ServerSocket tcpUpstream;
    private static HttpServer httpUpstream;
    private static final CompletableFuture<String> TCP_PEER_AND_BYTES = new CompletableFuture<>();
    private static final CompletableFuture<String> HTTP_PEER_AND_XFF = new CompletableFuture<>();
    private static GatewayProcess gateway;

    @BeforeAll
    static void setUp() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "transparent proxying needs root (CAP_NET_ADMIN)");
        for (String tool : List.of("ip", "iptables", "curl", "bash")) {
            assumeTrue(run(List.of("sh", "-c", "command -v " + tool)).ok(), tool + " is not installed");
        }
        Result made = run(List.of("ip", "netns", "add", GATEWAY_NS));
        assumeTrue(made.ok(), "network namespaces cannot be made here: " + made.output());
        run(List.of("ip", "netns", "add", CLIENT_NS)).check();
        inGateway("ip link set lo up");
        Result tproxy = run(ns(GATEWAY_NS, "iptables -t mangle -A PREROUTING -p tcp -d " + ORIGINAL
                + " -j TPROXY --on-port " + HTTP_LISTENER + " --tproxy-mark 0x1/0x1"));
        assumeTrue(tproxy.ok(), "the iptables TPROXY target is refused here: " + tproxy.output());
        run(ns(GATEWAY_NS, "iptables -t mangle -F PREROUTING")).check();

        sh("ip link add veth-c netns " + CLIENT_NS + " type veth peer name veth-g netns " + GATEWAY_NS);
        sh("ip link add " + ROOT_LINK + " type veth peer name veth-u netns " + GATEWAY_NS);
        inClient("ip addr add " + CLIENT + "/24 dev veth-c && ip link set veth-c up && ip link set lo up"
                + " && ip route add default via 198.18.0.1");
        inGateway("ip addr add 198.18.0.1/24 dev veth-g && ip link set veth-g up"
                + " && ip addr add " + GATEWAY_UPLINK + "/24 dev veth-u && ip link set veth-u up");
        sh("ip addr add " + ORIGINAL + "/24 dev " + ROOT_LINK + " && ip link set " + ROOT_LINK + " up");

        tcpUpstream = new ServerSocket();
        tcpUpstream.bind(new InetSocketAddress(ORIGINAL, 0));
        Thread tcp = new Thread(TransparentProxyNamespaceTest::serveTcp, "tcp-upstream");
        tcp.setDaemon(true);
        tcp.start();
        httpUpstream = HttpServer.create(new InetSocketAddress(ORIGINAL, 0), 0);
        httpUpstream.createContext("/", exchange -> {
            HTTP_PEER_AND_XFF.complete(exchange.getRemoteAddress().getAddress().getHostAddress() + " "
                    + exchange.getRequestHeaders().getFirst("x-forwarded-for"));
            byte[] body = "reached the original destination".getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        httpUpstream.start();

        inGateway(String.join(" && ", List.of(
                "iptables -t mangle -A PREROUTING -p tcp -d " + ORIGINAL + " --dport " + tcpUpstream.getLocalPort()
                        + " -j TPROXY --on-port " + TCP_LISTENER + " --tproxy-mark 0x1/0x1",
                "iptables -t mangle -A PREROUTING -p tcp -d " + ORIGINAL + " --dport "
                        + httpUpstream.getAddress().getPort() + " -j TPROXY --on-port " + HTTP_LISTENER
                        + " --tproxy-mark 0x1/0x1",
                "ip rule add fwmark 0x1/0x1 lookup 100",
                "ip route add local 0.0.0.0/0 dev lo table 100")));

        Path config = dir.resolve("gateway.yaml");
        Files.writeString(config, """
                event_loops: 1
                admin: { address: 127.0.0.1, port: 0 }
                listeners:
                  - name: tproxy_tcp
                    address: 0.0.0.0
                    port: %d
                    transparent: true
                    protocols: [tcp]
                    network_filters:
                      - { name: tcp_proxy, cluster: passthrough }
                    access_log: { path: "%s", format: "tcp %%DOWNSTREAM_REMOTE_ADDRESS%% %%UPSTREAM_HOST%%" }
                  - name: tproxy_http
                    address: 0.0.0.0
                    port: %d
                    transparent: true
                    protocols: [http1]
                    access_log: { path: "%s", format: "http %%DOWNSTREAM_REMOTE_ADDRESS%% %%UPSTREAM_HOST%%" }
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes:
                            - { match: { prefix: / }, route: { cluster: passthrough, timeout: 5s } }
                clusters:
                  - name: passthrough
                    type: original_dst
                    connect_timeout: 2s
                """.formatted(TCP_LISTENER, dir.resolve("tcp.log"), HTTP_LISTENER, dir.resolve("http.log")));
        gateway = GatewayProcess.start(List.of("ip", "netns", "exec", GATEWAY_NS), config, dir.resolve("upgrade.sock"),
                false, dir.resolve("gateway.out"), List.of()).awaitReady();
    }

    @AfterAll
    static void tearDown() throws Exception {
        try {
            if (gateway != null) {
                gateway.close();
                gateway.assertNoLeak();
            }
        } finally {
            if (tcpUpstream != null) {
                tcpUpstream.close();
            }
            if (httpUpstream != null) {
                httpUpstream.stop(0);
            }
            run(List.of("ip", "netns", "del", CLIENT_NS));
            run(List.of("ip", "netns", "del", GATEWAY_NS));
            run(List.of("ip", "link", "del", ROOT_LINK));
        }
    }

    @Test
    void aTcpConnectionToAnAddressBeyondTheGatewayReachesItThroughTheTransparentListener() throws Exception {
        Result answer = run(ns(CLIENT_NS, "bash -c 'exec 3<>/dev/tcp/" + ORIGINAL + "/" + tcpUpstream.getLocalPort()
                + "; printf ping >&3; head -c 4 <&3'"));
        assertThat(answer.output()).as("the original destination's answer, output: %s", answer.output()).isEqualTo("pong");
        assertThat(TCP_PEER_AND_BYTES.get(5, TimeUnit.SECONDS)).as("the upstream saw the gateway, not the client")
                .isEqualTo(GATEWAY_UPLINK + " ping");
        Await.until("the TCP access log entry", Duration.ofSeconds(5), () -> log("tcp.log").contains("tcp /" + CLIENT + ":"));
        assertThat(log("tcp.log")).contains(ORIGINAL + ":" + tcpUpstream.getLocalPort());
    }

    @Test
    void anHttpRequestToAnAddressBeyondTheGatewayReachesItWithTheClientsAddressForwarded() throws Exception {
        Result answer = run(ns(CLIENT_NS, "curl -sS --max-time 5 http://" + ORIGINAL + ":"
                + httpUpstream.getAddress().getPort() + "/hello"));
        assertThat(answer.output()).as("curl's output").isEqualTo("reached the original destination");
        assertThat(HTTP_PEER_AND_XFF.get(5, TimeUnit.SECONDS)).isEqualTo(GATEWAY_UPLINK + " " + CLIENT);
        Await.until("the HTTP access log entry", Duration.ofSeconds(5),
                () -> log("http.log").contains("http /" + CLIENT + ":"));
        assertThat(log("http.log")).contains(ORIGINAL + ":" + httpUpstream.getAddress().getPort());
    }

    private static void serveTcp() {
        try (Socket socket = tcpUpstream.accept()) {
            InputStream in = socket.getInputStream();
            String bytes = new String(in.readNBytes(4), StandardCharsets.US_ASCII);
            socket.getOutputStream().write("pong".getBytes(StandardCharsets.US_ASCII));
            TCP_PEER_AND_BYTES.complete(socket.getInetAddress().getHostAddress() + " " + bytes);
        } catch (IOException e) {
            TCP_PEER_AND_BYTES.completeExceptionally(e);
        }
    }

    private static String log(String name) {
        Path file = dir.resolve(name);
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void inGateway(String command) throws Exception {
        run(ns(GATEWAY_NS, command)).check();
    }

    private static void inClient(String command) throws Exception {
        run(ns(CLIENT_NS, command)).check();
    }

    private static void sh(String command) throws Exception {
        run(List.of("sh", "-c", command)).check();
    }

    private static List<String> ns(String namespace, String command) {
        return List.of("ip", "netns", "exec", namespace, "sh", "-c", command);
    }

    private static Result run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        boolean ended = process.waitFor(10, TimeUnit.SECONDS);
        if (!ended) {
            process.destroyForcibly();
        }
        return new Result(command, ended && process.exitValue() == 0,
                new String(output, StandardCharsets.UTF_8).strip());
    }

    /** What a command did: whether it ended well, and what it printed. */
    private record Result(List<String> command, boolean ok, String output) {

        void check() {
            assertThat(ok).as("%s: %s", command, output).isTrue();
        }
    }
}
