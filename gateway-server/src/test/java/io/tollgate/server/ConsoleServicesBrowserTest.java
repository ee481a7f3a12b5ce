package io.tollgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.rpc.DubboEchoService;
import io.tollgate.server.rpc.DubboProvider;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import io.tollgate.server.testing.ZooKeeperServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The console's Services tab in a real browser (headless Chromium): a real Dubbo 3.3 provider
 * registers in a real ZooKeeper, the gateway discovers it, and the page lists the service with
 * its registry, state, provider and the methods of its published service definition, and a
 * provider registered later appears on the open page; a method's "try it" form calls the provider
 * through the gateway's HTTP-to-RPC route ({@code rpc_call}) and shows its answer and time, once
 * the admin token is given. One ZooKeeper, gateway and browser for the class.
 */
class ConsoleServicesBrowserTest {

    private static final Duration LIMIT = Duration.ofSeconds(20);
    private static final String INTERFACE = DubboEchoService.class.getName();
    private static final String TOKEN = "console-services-token-0123456789";
    private static final String CONFIG = """
            admin: { address: 127.0.0.1, port: 0, token: ${TOKEN} }
            registries:
              - name: zk
                type: zookeeper
                ensemble: ${ZK}
                connection_timeout: 5s
            listeners:
              - name: dubbo
                port: 0
                protocols: [dubbo]
                route_config:
                  virtual_hosts:
                    - name: echo
                      domains: ["*"]
                      routes:
                        - match: { prefix: / }
                          route: { cluster: echo }
              - name: http
                port: 0
                protocols: [http1]
                route_config:
                  virtual_hosts:
                    - name: rpc
                      domains: ["*"]
                      routes:
                        - name: rpc
                          match: { prefix: /json }
                          rpc_call: { protocol: dubbo, cluster: echo, timeout: 10s }
            clusters:
              - name: echo
                discovery: { registry: zk, dubbo: { interface: "${INTERFACE}" } }
            """;

    private static final StartedResources started = new StartedResources();
    private static String registry;
    private static DubboProvider provider;
    /** Registered by the first test while its page is open; null before. */
    private static DubboProvider second;
    private static TestGateway gateway;
    private static Browser browser;

    @BeforeAll
    static void start() throws Exception {
        browser = started.add(Browser.start());
        ZooKeeperServer zookeeper = started.add(ZooKeeperServer.start());
        registry = "zookeeper://" + zookeeper.ensemble();
        provider = started.add(DubboProvider.named("console").registry(registry)
                .registerMode("interface").warmup(0).start());
        gateway = started.add(TestGateway.start(CONFIG, Map.of("ZK", zookeeper.ensemble(), "INTERFACE", INTERFACE,
                "TOKEN", TOKEN)));
        browser.open("http://127.0.0.1:" + gateway.gateway().adminPort() + "/ui");
    }

    @AfterAll
    static void stop() {
        started.close();
    }

    @Test
    void theServicesTabListsTheDiscoveredProviderAndTheMethodsOfItsDefinition() throws Exception {
        browser.tab("services");
        String service = "div.service[data-service='" + INTERFACE + "']";
        String host = service + " tr[data-host='127.0.0.1:" + provider.port() + "']";
        browser.await("the provider listed under its service", LIMIT, () -> browser.text(host) != null);
        assertThat(browser.text(host)).contains("application=provider-console", "100", "healthy");
        assertThat(browser.attribute(host, "class")).isEqualTo("host-ok");
        assertThat(browser.text(service + " h2")).contains(INTERFACE, "dubbo", "registry zk", "cluster echo",
                "1 of 1 providers healthy");
        assertThat(browser.text("#registry-table tr[data-registry='zk']")).contains("zookeeper", "127.0.0.1");
        assertThat(browser.attribute("#registry-table tr[data-registry='zk']", "class")).isEqualTo("host-ok");
        assertThat(browser.text("#registries")).as("the overview's registries").startsWith("zk (zookeeper, ")
                .doesNotContain("disconnected");
        // the methods come from the definition the provider writes under /dubbo/metadata, a moment after it registers
        browser.await("the methods of the service definition", LIMIT,
                () -> browser.text(service + " tr[data-method='slow']") != null);
        assertThat(browser.text(service + " tr[data-method='slow']")).contains("java.lang.String, long",
                "java.lang.String", "Try it");
        assertThat(browser.attribute("#services-empty", "class")).contains("hidden");
        browser.screenshot("services");

        // live: a provider registered while the page is open shows up without a reload
        second = started.add(DubboProvider.named("second").registry(registry)
                .registerMode("interface").warmup(0).start());
        browser.await("the second provider listed", LIMIT,
                () -> browser.text(service + " tr[data-host='127.0.0.1:" + second.port() + "']") != null);
        browser.await("the service's state counting both", LIMIT,
                () -> String.valueOf(browser.text(service + " h2")).contains("2 of 2 providers healthy"));
    }

    @Test
    void theTryItFormCallsTheProviderThroughTheRpcCallRouteWithTheAdminToken() throws Exception {
        browser.tab("services");
        String method = "div.service[data-service='" + INTERFACE + "'] tr[data-method='echo'] button";
        browser.await("the method's Try it button", LIMIT, () -> browser.text(method) != null);
        browser.await("the listeners and the configuration read", LIMIT,
                () -> browser.text("#listener-table tr[data-listener='http']") != null
                        && String.valueOf(browser.text("#config-version")).startsWith("version "));
        assertThat(browser.text("tr[data-route='rpc'] td:nth-child(3)")).isEqualTo("HTTP → dubbo call → echo");
        browser.click(method);
        assertThat(browser.attribute("#try-form", "class")).doesNotContain("hidden");
        assertThat(browser.value("#try-prefix")).as("the rpc_call route's prefix").isEqualTo("/json");
        assertThat(browser.value("#try-listener")).isEqualTo("http");
        assertThat(browser.value("#try-method")).isEqualTo("echo");
        assertThat(browser.value("#try-args")).isEqualTo("[\"\"]");
        browser.find("#try-args").clear();
        browser.find("#try-args").sendKeys("[\"from the console\"]");
        assertThat(browser.text("#try-path")).isEqualTo("POST /json/" + INTERFACE + "/echo on listener http");

        browser.find("#try-call").click();
        browser.await("the admin API's refusal without the token", LIMIT,
                () -> "admin-401".equals(browser.attribute("#try-result", "data-status")));
        assertThat(calls()).as("nothing called without the token").isZero();

        browser.tab("actions");
        browser.find("#token").sendKeys(TOKEN);
        browser.tab("services");
        browser.find("#try-call").click();
        browser.await("the provider's answer", LIMIT,
                () -> "200".equals(browser.attribute("#try-result", "data-status")));
        assertThat(browser.text("#try-result")).startsWith("200 in ").contains(" ms\n\"from the console\"");
        assertThat(Double.parseDouble(browser.attribute("#try-result", "data-time-ms"))).isPositive();
        assertThat(calls()).isEqualTo(1);
        browser.screenshot("services-try-it");

        // the provider's exception, as the route's JSON error, shown as the call's answer
        browser.click("div.service[data-service='" + INTERFACE + "'] tr[data-method='fail'] button");
        assertThat(browser.value("#try-method")).isEqualTo("fail");
        browser.find("#try-args").clear();
        browser.find("#try-args").sendKeys("[\"out of stock\"]");
        browser.find("#try-call").click();
        browser.await("the provider's exception", LIMIT,
                () -> "500".equals(browser.attribute("#try-result", "data-status")));
        assertThat(browser.text("#try-result")).contains("\"type\": \"java.lang.IllegalStateException\"",
                "out of stock");
        assertThat(browser.attribute("#try-result", "class")).contains("refused");
    }

    /** The calls that reached the providers. */
    private static int calls() {
        return provider.service().calls() + (second == null ? 0 : second.service().calls());
    }
}
