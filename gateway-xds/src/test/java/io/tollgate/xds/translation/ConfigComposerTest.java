package io.tollgate.xds.translation;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.config.AccessLogConfig;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.ForwardActionConfig;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.HeaderMutationConfig;
import io.tollgate.core.config.HttpOptions;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.RouteConfig;
import io.tollgate.core.config.RouteEntryConfig;
import io.tollgate.core.config.RouteMatchConfig;
import io.tollgate.core.config.VirtualHostConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.core.extension.ExtensionRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConfigComposerTest {

    private static final GatewayConfig FILE = ConfigLoader.parse("""
            node: { id: a, cluster: b }
            dynamic_resources: { ads_config: { address: 127.0.0.1, port: 18000 } }
            """);

    private final ConfigComposer composer = new ConfigComposer(FILE, new SecretFiles(), ExtensionRegistry.defaults());

    @Test
    void aListenerWaitsForItsRoutesAndTheEndpointsOfTheClustersTheyName() {
        XdsResources resources = XdsResources.EMPTY
                .withClusters(Map.of("app", new ClusterTranslator.Translated(cluster("app"), Optional.of("app"))))
                .withListeners(Map.of("web", new ListenerTranslator.Translated(listener(new RouteConfig(List.of())),
                        Optional.of("web-routes"))));

        ConfigComposer.Composition noRoutesNoEndpoints = composer.compose(resources);
        assertThat(noRoutesNoEndpoints.config().listeners()).isEmpty();
        assertThat(noRoutesNoEndpoints.config().clusters()).isEmpty();
        assertThat(noRoutesNoEndpoints.warming()).containsExactlyInAnyOrder("Cluster 'app'", "Listener 'web'");

        resources = resources.withRoutes(Map.of("web-routes", new RouteTranslator.Translated(routesTo("app"))));
        ConfigComposer.Composition noEndpoints = composer.compose(resources);
        assertThat(noEndpoints.config().listeners()).isEmpty();
        assertThat(noEndpoints.warming()).containsExactlyInAnyOrder("Cluster 'app'", "Listener 'web'");

        resources = resources.withEndpoints(Map.of("app", List.of(new EndpointConfig("127.0.0.1", 8080, 1, Map.of()))));
        ConfigComposer.Composition warm = composer.compose(resources);
        assertThat(warm.warming()).isEmpty();
        assertThat(warm.config().listeners()).singleElement()
                .satisfies(l -> assertThat(l.routeConfig()).isEqualTo(routesTo("app")));
        assertThat(warm.config().clusters()).singleElement()
                .satisfies(c -> assertThat(c.endpoints()).hasSize(1));
    }

    @Test
    void aListenerKeepsItsServedVersionWhileANewClusterItsRoutesNameWarms() {
        XdsResources resources = XdsResources.EMPTY
                .withClusters(Map.of("app", new ClusterTranslator.Translated(cluster("app"), Optional.empty())))
                .withListeners(Map.of("web", new ListenerTranslator.Translated(listener(routesTo("app")), Optional.empty())));
        composer.applied(composer.compose(resources));

        XdsResources next = resources
                .withClusters(Map.of("app", new ClusterTranslator.Translated(cluster("app"), Optional.empty()),
                        "next", new ClusterTranslator.Translated(cluster("next"), Optional.of("next"))))
                .withListeners(Map.of("web", new ListenerTranslator.Translated(listener(routesTo("next")), Optional.empty())));
        ConfigComposer.Composition warming = composer.compose(next);

        assertThat(warming.config().listeners()).singleElement()
                .satisfies(l -> assertThat(l.routeConfig()).isEqualTo(routesTo("app")));
        assertThat(warming.warming()).containsExactlyInAnyOrder("Cluster 'next'", "Listener 'web'");
    }

    @Test
    void aListenerKeepsServingWhenAClusterItsRoutesNameIsRemovedBeforeItsRoutesChange() {
        XdsResources resources = XdsResources.EMPTY
                .withClusters(Map.of("app", new ClusterTranslator.Translated(cluster("app"), Optional.empty()),
                        "other", new ClusterTranslator.Translated(cluster("other"), Optional.empty())))
                .withListeners(Map.of("web", new ListenerTranslator.Translated(listener(routesTo("other")),
                        Optional.empty())));
        composer.applied(composer.compose(resources));

        ConfigComposer.Composition removed = composer.compose(resources.without(ResourceType.CLUSTER, List.of("other")));

        assertThat(removed.config().clusters()).extracting(ClusterConfig::name).containsExactly("app");
        assertThat(removed.config().listeners()).singleElement()
                .satisfies(l -> assertThat(l.routeConfig()).isEqualTo(routesTo("other")));
    }

    @Test
    void resourcesGivenUpAfterTheirInitialFetchTimeoutServeEmptyAndHoldNothing() {
        XdsResources resources = XdsResources.EMPTY
                .withClusters(Map.of("app", new ClusterTranslator.Translated(cluster("app"), Optional.of("app"))))
                .withListeners(Map.of("web", new ListenerTranslator.Translated(listener(new RouteConfig(List.of())),
                        Optional.of("web-routes"))));
        composer.givenUp(Set.of("ClusterLoadAssignment/app", "RouteConfiguration/web-routes"));

        ConfigComposer.Composition composition = composer.compose(resources);

        assertThat(composition.warming()).isEmpty();
        assertThat(composition.config().clusters()).singleElement().satisfies(c -> assertThat(c.endpoints()).isEmpty());
        assertThat(composition.config().listeners()).singleElement()
                .satisfies(l -> assertThat(l.routeConfig().virtualHosts()).isEmpty());
    }

    @Test
    void aNewHealthCheckedClusterIsServedButTakesNoRoutesUntilItsFirstVerdicts() {
        ClusterConfig checked = ConfigLoader.parse("""
                clusters:
                  - name: app
                    endpoints: [ { address: 127.0.0.1, port: 8080 } ]
                    health_check: { type: tcp, timeout: 1s, interval: 1s }
                """).clusters().get(0);
        XdsResources resources = XdsResources.EMPTY
                .withClusters(Map.of("app", new ClusterTranslator.Translated(checked, Optional.empty())))
                .withListeners(Map.of("web", new ListenerTranslator.Translated(listener(routesTo("app")), Optional.empty())));

        ConfigComposer.Composition waiting = composer.compose(resources);
        assertThat(waiting.config().clusters()).extracting(ClusterConfig::name).containsExactly("app");
        assertThat(waiting.config().listeners()).isEmpty();
        assertThat(waiting.awaitingVerdicts()).containsExactly("app");
        assertThat(waiting.warming()).containsExactlyInAnyOrder("Cluster 'app' (first health check)", "Listener 'web'");

        composer.applied(waiting);
        composer.firstVerdicts(List.of("app"));
        ConfigComposer.Composition warm = composer.compose(resources);
        assertThat(warm.warming()).isEmpty();
        assertThat(warm.config().listeners()).singleElement()
                .satisfies(l -> assertThat(l.routeConfig()).isEqualTo(routesTo("app")));
    }

    private static ClusterConfig cluster(String name) {
        return new ClusterConfig(name, "round_robin", List.of(), Duration.ofSeconds(1), 1, 1, Duration.ofSeconds(10));
    }

    private static ListenerConfig listener(RouteConfig routes) {
        return new ListenerConfig("web", "127.0.0.1", 0, List.of("http1"), routes, HttpOptions.DEFAULTS,
                AccessLogConfig.DISABLED);
    }

    private static RouteConfig routesTo(String cluster) {
        ForwardActionConfig forward = new ForwardActionConfig(Optional.of(cluster), List.of(), Optional.empty(),
                Optional.empty(), ForwardActionConfig.DEFAULT_TIMEOUT, Map.of());
        RouteEntryConfig route = new RouteEntryConfig("", new RouteMatchConfig(Optional.empty(), Optional.of("/"),
                Optional.empty(), List.of(), List.of()), Optional.of(forward), Optional.empty(), Optional.empty(),
                HeaderMutationConfig.NONE, HeaderMutationConfig.NONE);
        return new RouteConfig(List.of(new VirtualHostConfig("all", List.of("*"), List.of(route))));
    }
}
