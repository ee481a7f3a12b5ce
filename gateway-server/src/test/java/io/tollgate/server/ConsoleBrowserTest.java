package io.tollgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.router.host.Host;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import io.tollgate.server.testing.TrafficLoop;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The console in a real browser (headless Chromium) under a load loop through the gateway: the
 * overview's charts draw live data, every page shows the gateway's listeners, routes, clusters
 * and requests, each host's rate, errors and connections, a host ejected and a host stopped in the
 * test turn red, and the actions need the admin token and change the state shown. Each page's screenshot goes to {@code target/console-screenshots}.
 */
class ConsoleBrowserTest {

    private static final Duration LIMIT = Duration.ofSeconds(15);
    /** How soon a host's new health verdict shows on the clusters page: the page polls each second. */
    private static final Duration RED_WITHIN = Duration.ofSeconds(2);
    /** Columns of a host's row: open connections, requests and errors per second, errors in all. */
    private static final int CONNECTIONS = 6;
    private static final int RATE = 7;
    private static final int ERROR_RATE = 8;
    private static final int ERRORS = 9;
    private static final String TOKEN = "console-test-token-0123456789";

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private Browser browser;
    private HttpUpstream a;
    private HttpUpstream b;
    /** Always 500: a failing host of a cluster without outlier detection, so it keeps failing. */
    private HttpUpstream c;
    /** Makes {@link #a} answer the traffic 500, until outlier detection ejects it. */
    private final AtomicBoolean aFails = new AtomicBoolean();
    private TestGateway gateway;
    private TrafficLoop traffic;

    @BeforeEach
    void start() throws Exception {
        browser = Browser.start();
        a = new HttpUpstream("a").answer("/health", () -> 200).answer("/api", () -> aFails.get() ? 500 : 200);
        b = new HttpUpstream("b").answer("/health", () -> 200);
        c = new HttpUpstream("c").answer("/flaky", () -> 500);
        gateway = TestGateway.start("admin: { address: 127.0.0.1, port: 0, token: " + TOKEN + " }\n"
                + GatewayYaml.http("""
                - { name: api, match: { prefix: /api }, route: { cluster: web } }
                - { name: flaky, match: { prefix: /flaky }, route: { cluster: flaky } }
                """, """
                clusters:
                  - name: flaky
                    endpoints: [ { address: 127.0.0.1, port: ${C} } ]
                  - name: web
                    health_check: { type: http, interval: 100ms, timeout: 500ms, unhealthy_threshold: 1,
                                    healthy_threshold: 1, http: { path: /health } }
                    outlier_detection: { consecutive_5xx: 3, consecutive_gateway_failure: 0,
                                         consecutive_connect_failure: 0, base_ejection_time: 1m,
                                         max_ejection_percent: 50 }
                    endpoints:
                      - { address: 127.0.0.1, port: ${A}, labels: { zone: east } }
                      - { address: 127.0.0.1, port: ${B}, labels: { zone: west } }
                    subset_lb_config:
                      fallback_policy: ANY_ENDPOINT
                      subset_selectors:
                        - keys: [zone]
                """), Map.of("A", a.port(), "B", b.port(), "C", c.port()));
        traffic = new TrafficLoop("console-load", i -> client.send(
                HttpRequest.newBuilder(gateway.uri("http", (i % 3 == 2 ? "/flaky/" : "/api/") + i)).build(),
                HttpResponse.BodyHandlers.ofString()));
        browser.open("http://127.0.0.1:" + gateway.gateway().adminPort() + "/ui");
    }

    @AfterEach
    void stop() throws Exception {
        if (traffic != null) {
            traffic.close();
        }
        if (browser != null) {
            browser.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
        if (c != null) {
            c.close();
        }
    }

    @Test
    void theOverviewChartsLiveTrafficAndAStoppedHostTurnsRed() throws Exception {
        browser.await("the state shown", LIMIT, () -> "LIVE".equals(browser.text("#state")));
        assertThat(browser.find("#version").getText()).isEqualTo(io.tollgate.server.Gateway.version());
        // shown after /config/version and /config_dump answer, which follow the state's /server_info
        browser.await("the configuration's version", LIMIT, () -> "version 1".equals(browser.text("#config-version")));
        browser.await("a non-zero rate plotted", LIMIT, () -> plotted("last") > 0);
        double sum = plotted("sum");
        double points = plotted("points");
        browser.await("the plotted requests grow with new samples", LIMIT,
                () -> plotted("sum") > sum && plotted("points") > points && plotted("last") > 0);
        assertThat(browser.attribute("#chart-rq polyline", "points")).contains(",");
        browser.await("an upstream time plotted", LIMIT,
                () -> !browser.attribute("#chart-latency polyline.s1", "points").isEmpty());
        browser.screenshot("overview");

        browser.tab("listeners");
        browser.await("the listener with its protocols", LIMIT,
                () -> String.valueOf(browser.text("#listener-table tr[data-listener='http']")).contains("http1"));
        browser.await("the route's rate", LIMIT, () -> routeFigure("api", 4) > 0);
        browser.await("the route's own p50 and p99 time", LIMIT,
                () -> routeFigure("api", 7) > 0 && routeFigure("api", 8) >= routeFigure("api", 7));
        assertThat(browser.text("#route-tables tr:first-child")).contains("rq/s", "5xx/s", "p50 ms", "p99 ms");
        assertThat(browser.text("#route-tables")).contains("all", "api", "web");
        browser.screenshot("listeners");

        browser.tab("log");
        browser.await("requests in the live access log", LIMIT,
                () -> String.valueOf(browser.text("#log-table tbody")).contains("/api/"));
        browser.find("#log-filters input[name='status']").sendKeys("2xx");
        browser.find("#log-filters input[name='route']").sendKeys("api");
        browser.find("#log-filters button[type='submit']").click();
        browser.await("only matching records", LIMIT, () -> browser.allHaveClass("#log-table tbody tr", "status-2"));
        browser.screenshot("access-log");

        browser.tab("clusters");
        String hostA = "127.0.0.1:" + a.port();
        String hostB = "127.0.0.1:" + b.port();
        String hostC = "127.0.0.1:" + c.port();
        browser.await("both hosts healthy", LIMIT, () -> "host-ok".equals(hostClass(hostB))
                && "host-ok".equals(hostClass(hostA)));
        assertThat(browser.text("#cluster-list")).contains("zone=east", "zone=west");
        browser.await("each serving host's rate and connection", LIMIT, () -> hostFigure(hostA, RATE) > 0
                && hostFigure(hostB, RATE) > 0 && hostFigure(hostA, CONNECTIONS) >= 1 && hostFigure(hostB, CONNECTIONS) >= 1);
        assertThat(hostFigure(hostA, ERRORS)).as("a serving host's errors").isZero();
        browser.await("the failing host's errors", LIMIT, () -> hostFigure(hostC, RATE) > 0
                && hostFigure(hostC, ERROR_RATE) > 0 && hostFigure(hostC, ERRORS) > 0);
        assertThat(hostClass(hostC)).as("failing but neither checked nor ejected").isEqualTo("host-ok");

        Host ejected = gateway.host("web", a.port());
        aFails.set(true);
        Await.until("a ejected for its 5xx", LIMIT, ejected::ejected);
        long ejectedAt = System.nanoTime();
        browser.await("a red on the page", LIMIT, () -> "host-bad".equals(hostClass(hostA)));
        assertThat(Duration.ofNanos(System.nanoTime() - ejectedAt)).as("shown red after the ejection")
                .isLessThanOrEqualTo(RED_WITHIN);
        assertThat(browser.attribute(hostRow(hostA), "data-health")).isEqualTo("ejected");
        assertThat(hostFigure(hostA, ERRORS)).as("its 5xx counted").isGreaterThanOrEqualTo(3);

        Host host = gateway.host("web", b.port());
        b.close();
        Await.until("b failing its health checks", LIMIT, () -> !host.healthy());
        long unhealthyAt = System.nanoTime();
        browser.await("b red on the page", LIMIT, () -> "host-bad".equals(hostClass(hostB)));
        Duration shownAfter = Duration.ofNanos(System.nanoTime() - unhealthyAt);
        assertThat(shownAfter).as("shown red after the verdict").isLessThanOrEqualTo(RED_WITHIN);
        assertThat(browser.attribute(hostRow(hostB), "data-health")).isEqualTo("unhealthy");
        assertThat(browser.style(hostRow(hostB), "background-color")).isEqualTo("rgb(253, 231, 231)");
        browser.screenshot("clusters");
    }

    @Test
    void actionsNeedTheTokenAndADrainChangesTheStateShown() throws Exception {
        browser.await("the state shown", LIMIT, () -> "LIVE".equals(browser.text("#state")));
        browser.tab("actions");
        browser.find("button[data-action='/drain_listeners?graceful']").click();
        browser.confirm();
        browser.await("the refusal shown", LIMIT, () -> "401".equals(browser.attribute("#action-result", "data-status")));
        assertThat(browser.find("#action-result").getText()).contains("needs the header Authorization: Bearer");
        assertThat(gateway.gateway().drains().ready()).as("nothing drained without the token").isTrue();

        browser.find("#token").sendKeys(TOKEN);
        browser.find("button[data-action='/drain_listeners?graceful']").click();
        browser.find("#confirm-no").click();
        assertThat(gateway.gateway().drains().ready()).as("cancelled: nothing drained").isTrue();

        browser.find("button[data-action='/drain_listeners?graceful']").click();
        browser.confirm();
        browser.await("the drain accepted", LIMIT, () -> "200".equals(browser.attribute("#action-result", "data-status")));
        browser.await("DRAINING shown", LIMIT, () -> "DRAINING".equals(browser.text("#state")));
        assertThat(browser.find("#state").getAttribute("class")).contains("state-DRAINING");

        browser.find("#log-logger").sendKeys("io.tollgate.console.test");
        browser.find("#set-level").click();
        browser.confirm();
        browser.await("the level set", LIMIT, () -> String.valueOf(browser.text("#action-result"))
                .contains("io.tollgate.console.test INFO"));
        browser.screenshot("actions");
    }

    /** The number in column {@code column} of the route's row, 0 while none is shown ("-"). */
    private double routeFigure(String route, int column) {
        String text = browser.text("tr[data-route='" + route + "'] td:nth-child(" + column + ")");
        return text == null || text.equals("-") ? 0 : Double.parseDouble(text);
    }

    private double plotted(String attribute) {
        String value = browser.attribute("#chart-rq", "data-" + attribute);
        return value == null ? 0 : Double.parseDouble(value);
    }

    private static String hostRow(String address) {
        return "tr[data-host='" + address + "']";
    }

    /**
     * The number in column {@code column} of the host's row on the clusters page, 0 while none is
     * shown ("-").
     */
    private double hostFigure(String address, int column) {
        String text = browser.text(hostRow(address) + " td:nth-child(" + column + ")");
        return text == null || text.equals("-") ? 0 : Double.parseDouble(text);
    }

    private String hostClass(String address) {
        return browser.attribute(hostRow(address), "class");
    }
}
