package io.tollgate.server.dns;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.router.host.Host;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.net.BindException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code strict_dns} and {@code logical_dns} clusters over real sockets: a real DNS server over UDP
 * on 127.0.0.1 whose answers the test changes, HTTP upstreams on 127.0.0.1, 127.0.0.2 and
 * 127.0.0.3 at one port, and requests through the gateway from the JDK's HTTP client.
 */
class DnsClusterTest {

    private static final Duration LIMIT = Duration.ofSeconds(15);
    private static final String NAME = "backend.test";

    private final List<HttpUpstream> upstreams = new ArrayList<>();
    private TestDnsServer dns;
    private TestGateway gateway;
    private int port;

    @BeforeEach
    void startDnsAndUpstreams() throws Exception {
        dns = new TestDnsServer();
        port = upstreamsOnOnePort("one", "two", "three");
    }

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
        upstreams.forEach(HttpUpstream::close);
        dns.close();
    }

    @Test
    void strictDnsServesEveryAddressAndFollowsTheAnswerWithinTheRefreshRate() throws Exception {
        dns.set(NAME, 60, "127.0.0.1");
        start("type: strict_dns", "dns_refresh_rate: 100ms");
        // the listener accepts only once the first answer is applied
        assertThat(gateway.servedBy("http", "/a", 5)).containsExactly("one");
        assertThat(gateway.gateway().snapshot().clusters().cluster("backend").hosts()).extracting(Host::id)
                .containsExactly("127.0.0.1:" + port);

        Set<Integer> connectionsToOne = upstreams.get(0).clientPorts();

        dns.set(NAME, 60, "127.0.0.1", "127.0.0.2");
        Await.until("127.0.0.2 in rotation", LIMIT, () -> gateway.inRotation("backend").size() == 2);
        assertThat(gateway.servedBy("http", "/b", 20)).containsExactlyInAnyOrder("one", "two");
        assertThat(upstreams.get(0).clientPorts()).as("the pooled connection of the host that stayed")
                .isEqualTo(connectionsToOne);

        dns.set(NAME, 60, "127.0.0.2");
        Await.until("only 127.0.0.2 left", LIMIT,
                () -> gateway.inRotation("backend").equals(Set.of("127.0.0.2:" + port)));
        assertThat(gateway.servedBy("http", "/c", 10)).containsExactly("two");
        // the first answer, then the two changes
        assertThat(gateway.count(DnsMeters.CHANGES, "cluster", "backend")).isEqualTo(3);
        assertThat(gateway.count(DnsMeters.RESOLUTIONS, "cluster", "backend")).isGreaterThanOrEqualTo(3);
        assertThat(gateway.count(DnsMeters.FAILURES, "cluster", "backend")).isZero();

        // the configuration as written: the name, not what it resolved to
        HttpResponse<String> dump = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + gateway.gateway().adminPort() + "/config_dump")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(dump.body().replaceAll("\\s", "")).contains("\"address\":\"" + NAME + "\"",
                "\"type\":\"strict_dns\"", "\"lookup_family\":\"v4_only\"", "\"refresh_rate\":\"100ms\"");
    }

    @Test
    void anUnchangedAnswerPublishesNothing() throws Exception {
        dns.set(NAME, 60, "127.0.0.1", "127.0.0.2");
        start("type: strict_dns", "dns_refresh_rate: 50ms");
        Object before = gateway.gateway().snapshot().clusters().cluster("backend").hostSet();
        int asked = dns.questions(NAME);
        Await.until("ten more resolutions", LIMIT, () -> dns.questions(NAME) >= asked + 10);
        assertThat(gateway.gateway().snapshot().clusters().cluster("backend").hostSet()).isSameAs(before);
        assertThat(gateway.count(DnsMeters.CHANGES, "cluster", "backend")).as("the first answer only").isEqualTo(1);
    }

    @Test
    void aShortTtlResolvesBeforeTheRefreshRate() throws Exception {
        dns.set(NAME, 1, "127.0.0.1");
        start("type: strict_dns", "dns_refresh_rate: 1h", "respect_dns_ttl: true", "dns_min_refresh_rate: 100ms");
        assertThat(gateway.servedBy("http", "/a", 3)).containsExactly("one");
        dns.set(NAME, 1, "127.0.0.2");
        // only the 1 s TTL can make this happen: the refresh rate is an hour
        Await.until("the answer after the TTL applied", LIMIT,
                () -> gateway.inRotation("backend").equals(Set.of("127.0.0.2:" + port)));
        assertThat(gateway.servedBy("http", "/b", 5)).containsExactly("two");
    }

    @Test
    void aLongTtlHoldsTheNextResolutionPastTheRefreshRate() throws Exception {
        dns.set(NAME, 3600, "127.0.0.1");
        dns.set("other.test", 3600, "127.0.0.1");
        String[] settings = {"type: strict_dns", "dns_refresh_rate: 50ms", "respect_dns_ttl: true",
            "dns_min_refresh_rate: 50ms"};
        start(settings);
        reloadWith(cluster("backend", NAME, settings) + cluster("other", "other.test", "type: strict_dns",
                "dns_refresh_rate: 50ms"));
        // the second cluster ignores TTLs: its name is asked again every 50 ms meanwhile
        Await.until("the other name asked ten times", LIMIT, () -> dns.questions("other.test") >= 10);
        assertThat(dns.questions(NAME)).as("questions about a name whose TTL is an hour").isEqualTo(1);
    }

    @Test
    void aFailedResolutionKeepsTheLastAddresses() throws Exception {
        dns.set(NAME, 60, "127.0.0.1", "127.0.0.2");
        start("type: strict_dns", "dns_refresh_rate: 50ms", "dns_query_timeout: 200ms",
                "dns_failure_refresh_rate: { base_interval: 50ms, max_interval: 100ms }");
        assertThat(gateway.servedBy("http", "/a", 10)).containsExactlyInAnyOrder("one", "two");

        dns.remove(NAME); // NXDOMAIN
        Await.until("NXDOMAIN counted twice", LIMIT, () -> gateway.count(DnsMeters.FAILURES, "cluster", "backend") >= 2);
        assertThat(gateway.inRotation("backend")).hasSize(2);
        assertThat(gateway.servedBy("http", "/b", 10)).containsExactlyInAnyOrder("one", "two");

        dns.set(NAME, 60, "127.0.0.1", "127.0.0.2");
        dns.silent(true); // the server down: every query times out
        double failures = gateway.count(DnsMeters.FAILURES, "cluster", "backend");
        Await.until("timeouts counted", LIMIT,
                () -> gateway.count(DnsMeters.FAILURES, "cluster", "backend") >= failures + 2);
        assertThat(gateway.servedBy("http", "/c", 10)).containsExactlyInAnyOrder("one", "two");

        dns.set(NAME, 60, "127.0.0.3");
        dns.silent(false);
        Await.until("the server answering again", LIMIT,
                () -> gateway.inRotation("backend").equals(Set.of("127.0.0.3:" + port)));
        assertThat(gateway.servedBy("http", "/d", 5)).containsExactly("three");
    }

    @Test
    void logicalDnsSendsNewConnectionsToTheNewAddressAndLetsExistingOnesFinish() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        upstreams.get(0).handle("/slow", exchange -> {
            try {
                release.await(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.getResponseHeaders().set("X-Upstream", "one");
            HttpUpstream.respond(exchange, 200, "slow".getBytes(StandardCharsets.UTF_8));
        });
        dns.set(NAME, 60, "127.0.0.1");
        start("type: logical_dns", "dns_refresh_rate: 50ms");
        List<Host> hosts = gateway.gateway().snapshot().clusters().cluster("backend").hosts();
        assertThat(hosts).extracting(Host::id).containsExactly(NAME + ":" + port);
        Host logical = hosts.get(0);
        assertThat(gateway.servedBy("http", "/a", 3)).containsExactly("one");

        HttpClient other = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        CompletableFuture<HttpResponse<String>> slow = other.sendAsync(
                HttpRequest.newBuilder(gateway.uri("http", "/slow")).build(), HttpResponse.BodyHandlers.ofString());
        Await.until("the slow request at 127.0.0.1", LIMIT, () -> logical.activeRequests() == 1);

        dns.set(NAME, 60, "127.0.0.2");
        // the first answer added the host; the second moves it
        Await.until("the logical host moved", LIMIT,
                () -> gateway.count(DnsMeters.CHANGES, "cluster", "backend") == 2);
        // the only pooled connection is busy: this request opens a new one, to the new address
        assertThat(gateway.servedBy("http", "/b", 3)).containsExactly("two");
        // the same host: its state and pool stay
        assertThat(gateway.gateway().snapshot().clusters().cluster("backend").hosts()).containsExactly(logical);
        assertThat(logical.connectAddress().getAddress().getHostAddress()).isEqualTo("127.0.0.2");

        release.countDown();
        HttpResponse<String> finished = slow.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(finished.statusCode()).isEqualTo(200);
        assertThat(finished.headers().firstValue("x-upstream")).contains("one");
    }

    @Test
    void strictDnsHostsThatStayKeepTheirEjection() throws Exception {
        AtomicBoolean broken = new AtomicBoolean(true);
        upstreams.get(0).answer("/work/", () -> broken.get() ? 500 : 200);
        dns.set(NAME, 60, "127.0.0.1", "127.0.0.2");
        start("type: strict_dns", "dns_refresh_rate: 50ms",
                "outlier_detection: { consecutive_5xx: 2, interval: 50ms, base_ejection_time: 1m, max_ejection_percent: 100 }");
        Host first = host("127.0.0.1");
        for (int i = 0; i < 20 && !first.ejected(); i++) {
            send("/work/" + i);
        }
        Await.until("127.0.0.1 ejected and out of rotation", LIMIT,
                () -> first.ejected() && !gateway.inRotation("backend").contains(first.id()));
        broken.set(false);

        dns.set(NAME, 60, "127.0.0.1", "127.0.0.2", "127.0.0.3");
        Await.until("127.0.0.3 added", LIMIT, () -> gateway.inRotation("backend").contains("127.0.0.3:" + port));
        Host stayed = host("127.0.0.1");
        assertThat(stayed.ejected()).as("the ejection of a host the answer still lists").isTrue();
        assertThat(gateway.inRotation("backend")).containsExactlyInAnyOrder("127.0.0.2:" + port, "127.0.0.3:" + port);
        assertThat(gateway.servedBy("http", "/work/", 20)).containsExactlyInAnyOrder("two", "three");
    }

    @Test
    void strictDnsHostsThatStayKeepTheirHealthVerdict() throws Exception {
        upstreams.get(1).answer("/health", () -> 503);
        dns.set(NAME, 60, "127.0.0.1", "127.0.0.2");
        // one probe per host, at start: a verdict after that can only be one kept
        start("type: strict_dns", "dns_refresh_rate: 50ms",
                "health_check: { type: http, interval: 1h, timeout: 2s, unhealthy_threshold: 1, healthy_threshold: 1,"
                        + " http: { path: /health } }");
        Host healthy = host("127.0.0.1");
        Host unhealthy = host("127.0.0.2");
        Await.until("127.0.0.2 found unhealthy", LIMIT,
                () -> !unhealthy.pendingFirstCheck() && !unhealthy.healthy()
                        && gateway.inRotation("backend").equals(Set.of(healthy.id())));

        dns.set(NAME, 60, "127.0.0.1", "127.0.0.2", "127.0.0.3");
        Await.until("127.0.0.3 checked and in rotation", LIMIT,
                () -> gateway.inRotation("backend").contains("127.0.0.3:" + port));
        assertThat(host("127.0.0.1")).isSameAs(healthy);
        assertThat(host("127.0.0.2")).isSameAs(unhealthy);
        assertThat(unhealthy.pendingFirstCheck()).isFalse();
        assertThat(unhealthy.healthy()).isFalse();
        assertThat(gateway.servedBy("http", "/work/", 20)).containsExactlyInAnyOrder("one", "three");
    }

    @Test
    void aFailedConnectResolvesAgainAtOnce() throws Exception {
        upstreams.remove(2).close(); // nothing listens on 127.0.0.3 any more
        dns.set(NAME, 60, "127.0.0.3");
        start("type: strict_dns", "dns_refresh_rate: 1h", "dns_min_refresh_rate: 50ms");
        dns.set(NAME, 60, "127.0.0.1");
        // the refresh rate is an hour: only the failed connect makes the gateway ask again
        HttpResponse<String> refused = send("/a");
        assertThat(refused.statusCode()).isEqualTo(503);
        Await.until("resolved again after the failed connect", LIMIT,
                () -> gateway.inRotation("backend").equals(Set.of("127.0.0.1:" + port)));
        assertThat(gateway.count(DnsMeters.CONNECT_FAILURE_REFRESHES, "cluster", "backend")).isGreaterThanOrEqualTo(1);
        assertThat(gateway.servedBy("http", "/b", 5)).containsExactly("one");
    }

    @Test
    void aReloadKeepsTheResolvedHostsAndNeverServesTheNames() throws Exception {
        dns.set(NAME, 60, "127.0.0.1", "127.0.0.2");
        start("type: strict_dns", "dns_refresh_rate: 1h");
        Host first = host("127.0.0.1");

        // the same settings: the cluster stays, with its hosts as they are
        reload("type: strict_dns", "dns_refresh_rate: 1h");
        assertThat(host("127.0.0.1")).isSameAs(first);

        // another setting: the cluster is rebuilt on the addresses resolved, at once
        reload("type: strict_dns", "dns_refresh_rate: 1h", "connect_timeout: 2s");
        assertThat(gateway.gateway().snapshot().clusters().cluster("backend").hosts()).extracting(Host::id)
                .containsExactlyInAnyOrder("127.0.0.1:" + port, "127.0.0.2:" + port);
        assertThat(gateway.servedBy("http", "/a", 10)).containsExactlyInAnyOrder("one", "two");
    }

    @Test
    void aReloadToAnotherNameReplacesTheLogicalHost() throws Exception {
        dns.set(NAME, 60, "127.0.0.1");
        dns.set("other.test", 60, "127.0.0.2");
        start("type: logical_dns", "dns_refresh_rate: 1h");
        assertThat(gateway.servedBy("http", "/a", 3)).containsExactly("one");

        // same settings, another name: the old host serves until the new name's first answer
        reloadWith(cluster("backend", "other.test", "type: logical_dns", "dns_refresh_rate: 1h"));
        Await.until("the host of the new name", LIMIT, () -> gateway.gateway().snapshot().clusters().cluster("backend")
                .hosts().stream().map(Host::id).toList().equals(List.of("other.test:" + port)));
        assertThat(gateway.servedBy("http", "/b", 3)).containsExactly("two");
    }

    @Test
    void autoAsksForIpv6FirstAndFallsBackToIpv4() throws Exception {
        dns.set(NAME, 60, "127.0.0.1", "127.0.0.2");
        start("type: strict_dns", "dns_lookup_family: auto", "dns_refresh_rate: 1h");
        assertThat(gateway.servedBy("http", "/a", 10)).containsExactlyInAnyOrder("one", "two");
        // an AAAA question (answered with no address), then an A question
        assertThat(dns.questions(NAME)).isEqualTo(2);
    }

    private void reload(String... settings) {
        reloadWith(cluster("backend", NAME, settings));
    }

    /** Reloads the gateway with the same listener and the clusters {@code clusters} (YAML list elements). */
    private void reloadWith(String clusters) {
        String yaml = GatewayYaml.http("""
                - { match: { prefix: / }, route: { cluster: backend, timeout: 10s } }
                """, "clusters:\n" + clusters);
        gateway.gateway().reload(ConfigLoader.parse("admin: { address: 127.0.0.1, port: 0 }\n" + yaml));
    }

    private HttpResponse<String> send(String path) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        return client.send(HttpRequest.newBuilder(gateway.uri("http", path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private Host host(String address) {
        return gateway.gateway().snapshot().clusters().cluster("backend").hosts().stream()
                .filter(h -> h.id().equals(address + ":" + port)).findFirst()
                .orElseThrow(() -> new AssertionError("no host " + address));
    }

    /** Starts the gateway whose listener {@code http} routes to cluster {@code backend} resolving {@link #NAME}. */
    private void start(String... settings) throws InterruptedException {
        gateway = TestGateway.start(GatewayYaml.http("""
                - { match: { prefix: / }, route: { cluster: backend, timeout: 10s } }
                """, "clusters:\n" + cluster("backend", NAME, settings)), Map.of());
    }

    private String cluster(String name, String host, String... settings) {
        StringBuilder yaml = new StringBuilder("  - name: " + name + "\n")
                .append("    endpoints: [ { address: ").append(host).append(", port: ").append(port).append(" } ]\n")
                .append("    dns_resolvers: [ \"").append(dns.address()).append("\" ]\n");
        if (Arrays.stream(settings).noneMatch(setting -> setting.startsWith("dns_lookup_family"))) {
            yaml.append("    dns_lookup_family: v4_only\n");
        }
        for (String setting : settings) {
            yaml.append("    ").append(setting).append('\n');
        }
        return yaml.toString();
    }

    /** Starts upstreams on 127.0.0.1, 127.0.0.2, ... at one port; returns the port. */
    private int upstreamsOnOnePort(String... names) throws IOException {
        for (int attempt = 0; ; attempt++) {
            HttpUpstream first = new HttpUpstream(names[0]);
            List<HttpUpstream> started = new ArrayList<>(List.of(first));
            try {
                for (int i = 1; i < names.length; i++) {
                    started.add(new HttpUpstream(names[i], "127.0.0." + (i + 1), first.port()));
                }
                upstreams.addAll(started);
                return first.port();
            } catch (BindException e) {
                started.forEach(HttpUpstream::close);
                if (attempt == 5) {
                    throw e;
                }
            }
        }
    }
}
