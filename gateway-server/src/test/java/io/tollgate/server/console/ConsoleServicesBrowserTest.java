package io.tollgate.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.dubbo.DubboEchoService;
import io.tollgate.server.dubbo.DubboProvider;
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
 * provider registered later appears on the open page. One ZooKeeper, gateway and browser for the
 * class.
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
}
