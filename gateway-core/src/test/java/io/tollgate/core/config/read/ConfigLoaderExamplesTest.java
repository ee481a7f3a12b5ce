package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.config.AdminConfig;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.DemoUpstreamConfig;
import io.tollgate.core.config.DirectResponseConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.ForwardActionConfig;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.HeaderMutationConfig;
import io.tollgate.core.config.HeaderValueConfig;
import io.tollgate.core.config.HttpOptions;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.RedirectConfig;
import io.tollgate.core.config.RouteEntryConfig;
import io.tollgate.core.config.RpcCallConfig;
import io.tollgate.core.config.TlsConfig;
import io.tollgate.core.config.ValueMatcherConfig;
import io.tollgate.core.config.VirtualHostConfig;
import io.tollgate.core.config.WeightedClusterConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigLoaderExamplesTest {

    private static final Path EXAMPLES = Path.of("..", "docs", "examples");

    /**
     * The examples whose extensions this module has: filters.yaml and tracing-zipkin.yaml name
     * filters of gateway-filters and gateway-server, and are loaded by the server's tests
     * (FiltersExampleTest, MainTest).
     */
    static Stream<Path> examples() throws IOException {
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            List<Path> yaml = files.filter(f -> f.toString().endsWith(".yaml"))
                    .filter(f -> !Set.of("filters.yaml", "tracing-zipkin.yaml").contains(f.getFileName().toString())).sorted().toList();
            assertThat(yaml).extracting(f -> f.getFileName().toString())
                    .contains("minimal.yaml", "http-proxy.yaml");
            return yaml.stream();
        }
    }

    @ParameterizedTest
    @MethodSource("examples")
    void loadsEveryDocumentedExample(Path example) {
        GatewayConfig config = ConfigLoader.load(example);

        if (config.xds().isEmpty()) {
            assertThat(config.listeners()).isNotEmpty();
            assertThat(config.clusters()).isNotEmpty();
        }
    }

    @Test
    void loadsTheBuiltInDefaults() {
        GatewayConfig config = ConfigLoader.defaults();

        assertThat(config.admin()).isEqualTo(new AdminConfig("127.0.0.1", 9901));
        assertThat(config.demoUpstream()).contains(new DemoUpstreamConfig("127.0.0.1", 8081));
        ListenerConfig listener = config.listeners().get(0);
        assertThat(listener.port()).isEqualTo(8080);
        assertThat(listener.accessLog().path()).isEqualTo("stdout");
        RouteEntryConfig route = listener.routeConfig().virtualHosts().get(0).routes().get(0);
        assertThat(route.forward().orElseThrow().cluster()).contains("demo");
        assertThat(config.cluster("demo").orElseThrow().connectTimeout()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void fillsEveryDefaultOfTheMinimalExample() {
        GatewayConfig config = ConfigLoader.load(EXAMPLES.resolve("minimal.yaml"));

        assertThat(config.admin()).isEqualTo(new AdminConfig("127.0.0.1", 9901));
        assertThat(config.eventLoops()).isZero();
        assertThat(config.demoUpstream()).isEmpty();
        ListenerConfig listener = config.listeners().get(0);
        assertThat(listener.address()).isEqualTo("127.0.0.1");
        assertThat(listener.protocols()).containsExactly("http1");
        assertThat(listener.http()).isEqualTo(HttpOptions.DEFAULTS);
        assertThat(listener.accessLog().enabled()).isFalse();
        RouteEntryConfig route = listener.routeConfig().virtualHosts().get(0).routes().get(0);
        assertThat(route.name()).isEmpty();
        assertThat(route.forward().orElseThrow().timeout()).isEqualTo(ForwardActionConfig.DEFAULT_TIMEOUT);
        assertThat(route.requestHeaders()).isEqualTo(HeaderMutationConfig.NONE);
        ClusterConfig cluster = config.clusters().get(0);
        assertThat(cluster).isEqualTo(new ClusterConfig("backend", "round_robin",
                List.of(new EndpointConfig("127.0.0.1", 9000, 1, Map.of())),
                Duration.ofSeconds(5), 1024, 1024, Duration.ofSeconds(50)));
    }

    @Test
    void readsTheRpcCallRoutesOfTheZookeeperExample() {
        GatewayConfig config = ConfigLoader.load(EXAMPLES.resolve("zookeeper.yaml"));

        ListenerConfig http = config.listeners().stream().filter(l -> l.name().equals("http")).findFirst().orElseThrow();
        assertThat(http.address()).isEqualTo("127.0.0.1");
        assertThat(http.port()).isEqualTo(8080);
        List<RouteEntryConfig> routes = http.routeConfig().virtualHosts().get(0).routes();
        RpcCallConfig dubbo = routes.get(0).rpcCall().orElseThrow();
        assertThat(dubbo.protocol()).isEqualTo(RpcCallConfig.Protocol.DUBBO);
        assertThat(dubbo.prefix()).isEqualTo("/dubbo");
        assertThat(routes.get(0).forward().orElseThrow().timeout()).isEqualTo(Duration.ofSeconds(2));
        RpcCallConfig sofa = routes.get(1).rpcCall().orElseThrow();
        assertThat(sofa.protocol()).isEqualTo(RpcCallConfig.Protocol.SOFA);
        assertThat(sofa.prefix()).isEqualTo("/sofa");
        assertThat(sofa.methods().get("com.example.OrderService")).extracting(RpcCallConfig.Method::name)
                .containsExactly("nextId", "total");
        assertThat(routes.get(1).forward().orElseThrow().timeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(routes.get(0).forward().orElseThrow().cluster()).contains("dubbo-services");
        assertThat(routes.get(1).forward().orElseThrow().cluster()).contains("sofa-services");
        assertThat(config.discovery().templates()).containsKeys("dubbo-services", "sofa-services");
    }

    @Test
    void readsTheTlsExample() {
        GatewayConfig config = ConfigLoader.load(EXAMPLES.resolve("tls.yaml"));

        assertThat(config.admin().token()).isPresent();
        TlsConfig tls = config.listeners().get(0).tls().orElseThrow();
        assertThat(tls.sniCertificates()).singleElement()
                .satisfies(s -> assertThat(s.serverNames()).containsExactly("a.test", "*.a.test"));
        assertThat(tls.clientAuth().orElseThrow().required()).isFalse();
        assertThat(config.cluster("web-backend").orElseThrow().tls().orElseThrow().verifies()).isTrue();
        assertThat(config.cluster("grpc-backend").orElseThrow().tls().orElseThrow().alpn()).containsExactly("h2");
    }

    @Test
    void readsEveryFieldOfTheHttpProxyExample() {
        GatewayConfig config = ConfigLoader.load(EXAMPLES.resolve("http-proxy.yaml"));

        assertThat(config.eventLoops()).isEqualTo(2);
        ListenerConfig listener = config.listeners().get(0);
        assertThat(listener.http()).isEqualTo(new HttpOptions(4096, 32768, 10_485_760L,
                Duration.ofMinutes(2), Duration.ofSeconds(10)));
        VirtualHostConfig shop = listener.routeConfig().virtualHosts().get(0);
        assertThat(shop.domains()).containsExactly("shop.example.com", "*.shop.example.com", "shop.*");
        assertThat(shop.routes()).extracting(RouteEntryConfig::name)
                .containsExactly("healthz", "catalog-canary", "catalog", "search", "old-api", "default");

        assertThat(shop.routes().get(0).directResponse()).contains(new DirectResponseConfig(200, "ok\n"));

        RouteEntryConfig canary = shop.routes().get(1);
        assertThat(canary.match().headers()).containsExactly(
                new ValueMatcherConfig("x-canary", Optional.of("yes"), Optional.empty(), false, false));
        assertThat(canary.forward().orElseThrow().prefixRewrite()).contains("/v2/catalog/");

        RouteEntryConfig catalog = shop.routes().get(2);
        ForwardActionConfig forward = catalog.forward().orElseThrow();
        assertThat(forward.cluster()).isEmpty();
        assertThat(forward.weightedClusters()).containsExactly(
                new WeightedClusterConfig("catalog-v1", 90), new WeightedClusterConfig("catalog-v2", 10));
        assertThat(forward.hostRewrite()).contains("catalog.internal");
        assertThat(forward.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(catalog.requestHeaders()).isEqualTo(new HeaderMutationConfig(List.of(
                new HeaderValueConfig("x-forwarded-by", "tollgate", false),
                new HeaderValueConfig("x-route", "catalog", true)), List.of("x-debug")));
        assertThat(catalog.responseHeaders().remove()).containsExactly("server");

        RouteEntryConfig search = shop.routes().get(3);
        assertThat(search.match().regex()).contains("/search(/.*)?");
        assertThat(search.match().queryParameters()).containsExactly(
                new ValueMatcherConfig("q", Optional.empty(), Optional.empty(), true, false));
        assertThat(search.match().headers().get(0).invert()).isTrue();

        assertThat(shop.routes().get(4).redirect()).contains(new RedirectConfig(Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.of("/api/v1/"), 308, false));
        RouteEntryConfig fallback = listener.routeConfig().virtualHosts().get(1).routes().get(0);
        assertThat(fallback.redirect()).contains(new RedirectConfig(Optional.of("https"),
                Optional.of("shop.example.com"), Optional.empty(), Optional.of("/"), Optional.empty(), 302, true));

        ClusterConfig v1 = config.cluster("catalog-v1").orElseThrow();
        assertThat(v1.endpoints().get(0)).isEqualTo(
                new EndpointConfig("10.0.0.11", 8000, 2, Map.of("version", "v1", "zone", "a")));
        assertThat(v1.idleTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.cluster("catalog-v2").orElseThrow().lbPolicy()).isEqualTo("least_request");
    }
}
