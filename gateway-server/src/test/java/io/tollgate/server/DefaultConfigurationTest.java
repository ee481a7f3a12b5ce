package io.tollgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.config.AdminConfig;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.DemoUpstreamConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.server.testing.FreePort;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The built-in configuration answers end to end: listener, route, cluster, demo upstream. Ports
 * are moved to free ones so the test never clashes with a gateway running on the machine.
 */
class DefaultConfigurationTest {

    @Test
    void defaultsListenOnTheDocumentedPorts() {
        GatewayConfig defaults = ConfigLoader.defaults();
        assertThat(defaults.admin()).isEqualTo(new AdminConfig("127.0.0.1", 9901));
        assertThat(defaults.listeners()).extracting(ListenerConfig::address, ListenerConfig::port, ListenerConfig::protocols)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("127.0.0.1", 8080, List.of("http1", "h2c")),
                        org.assertj.core.groups.Tuple.tuple("127.0.0.1", 12200, List.of("bolt")),
                        org.assertj.core.groups.Tuple.tuple("127.0.0.1", 20880, List.of("dubbo")));
        assertThat(defaults.cluster("bolt_services").orElseThrow().endpoints().get(0).port()).isEqualTo(12201);
        assertThat(defaults.cluster("dubbo_services").orElseThrow().endpoints().get(0).port()).isEqualTo(20881);
    }

    @Test
    void defaultConfigurationAnswersThroughTheDemoUpstream() throws Exception {
        GatewayConfig defaults = ConfigLoader.defaults();
        int demoPort = FreePort.pick();
        List<ListenerConfig> listeners = defaults.listeners().stream()
                .map(l -> new ListenerConfig(l.name(), l.address(), 0, l.protocols(), l.routeConfig(), l.http(),
                        io.tollgate.core.config.AccessLogConfig.DISABLED))
                .toList();
        List<ClusterConfig> clusters = defaults.clusters().stream()
                .map(c -> new ClusterConfig(c.name(), c.lbPolicy(),
                        c.endpoints().stream().map(e -> new EndpointConfig(e.address(), demoPort, e.weight(), e.labels())).toList(),
                        c.connectTimeout(), c.maxConnectionsPerHost(), c.maxPendingRequests(), c.idleTimeout()))
                .toList();
        GatewayConfig config = new GatewayConfig(new AdminConfig("127.0.0.1", 0), defaults.eventLoops(), listeners,
                clusters, Optional.of(new DemoUpstreamConfig("127.0.0.1", demoPort)));
        try (Gateway gateway = Gateway.start(config)) {
            HttpClient client = HttpClient.newHttpClient();
            HttpResponse<String> response = client.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port("http") + "/hello")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("Tollgate demo upstream", "GET /hello");
            HttpResponse<String> ready = client.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.adminPort() + "/ready")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(ready.statusCode()).isEqualTo(200);
        }
    }
}
