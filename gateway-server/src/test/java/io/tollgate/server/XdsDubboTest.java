package io.tollgate.server;

import static io.tollgate.server.EnvoyResources.staticCluster;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.filters.network.dubbo_proxy.v3.DubboProxy;
import io.envoyproxy.envoy.extensions.filters.network.dubbo_proxy.v3.MethodMatch;
import io.envoyproxy.envoy.extensions.filters.network.dubbo_proxy.v3.Route;
import io.envoyproxy.envoy.extensions.filters.network.dubbo_proxy.v3.RouteAction;
import io.envoyproxy.envoy.extensions.filters.network.dubbo_proxy.v3.RouteConfiguration;
import io.envoyproxy.envoy.extensions.filters.network.dubbo_proxy.v3.RouteMatch;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.rpc.DubboEchoService;
import io.tollgate.server.rpc.DubboProvider;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.StartedResources;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A Dubbo listener from xDS, as Envoy's {@code dubbo_proxy} network filter: real Dubbo consumers
 * call real Dubbo providers through it, routed by interface, group and method.
 */
class XdsDubboTest {

    private static final String INTERFACE = DubboEchoService.class.getName();

    private final StartedResources resources = new StartedResources();

    @AfterEach
    void stop() {
        resources.close();
    }

    @Test
    void aDubboProxyListenerRoutesByInterfaceGroupAndMethod() throws Exception {
        DubboProvider main = resources.add(DubboProvider.named("main").start());
        DubboProvider blue = resources.add(DubboProvider.named("blue").group("blue").version("1.0").start());
        DubboProvider echo = resources.add(DubboProvider.named("echo").start());
        ControlPlane controlPlane = resources.add(new ControlPlane());
        DubboProxy proxy = DubboProxy.newBuilder().setStatPrefix("dubbo")
                .addRouteConfig(RouteConfiguration.newBuilder().setName("blue").setInterface(INTERFACE).setGroup("blue")
                        .addRoutes(route(null, "blue")))
                .addRouteConfig(RouteConfiguration.newBuilder().setName("main").setInterface(INTERFACE)
                        .addRoutes(route("echo", "echo"))
                        .addRoutes(route(null, "main")))
                .build();
        Listener listener = Listener.newBuilder().setName("dubbo").setAddress(EnvoyResources.address(0))
                .addFilterChains(FilterChain.newBuilder().addFilters(Filter.newBuilder()
                        .setName("envoy.filters.network.dubbo_proxy").setTypedConfig(Any.pack(proxy))))
                .build();
        controlPlane.push("1", List.of(staticCluster("main", main.port()), staticCluster("blue", blue.port()),
                staticCluster("echo", echo.port())), List.of(), List.of(listener), List.of());
        Gateway gateway = resources.add(Gateway.start(ConfigLoader.parse("""
                admin: { address: 127.0.0.1, port: 0 }
                node: { id: tollgate-test, cluster: ingress }
                dynamic_resources: { ads_config: { address: 127.0.0.1, port: %d } }
                """.formatted(controlPlane.port()))));
        Await.until("the Dubbo listener bound", Duration.ofSeconds(10),
                () -> XdsTestBed.listenersBound(gateway, 1));

        try (DubboConsumer consumer = DubboConsumer.to(gateway.port("dubbo")).connect();
                DubboConsumer blueConsumer = DubboConsumer.to(gateway.port("dubbo")).group("blue").version("1.0").connect()) {
            assertThat(consumer.service().tagged("x")).isEqualTo("main:x");
            assertThat(consumer.service().echo("y")).isEqualTo("y");
            assertThat(echo.service().calls()).isEqualTo(1);
            assertThat(blueConsumer.service().tagged("z")).isEqualTo("blue:z");
        }
    }

    /** A route of the method {@code method} (every method when null) to {@code cluster}. */
    private static Route route(String method, String cluster) {
        RouteMatch.Builder match = RouteMatch.newBuilder();
        if (method != null) {
            match.setMethod(MethodMatch.newBuilder().setName(StringMatcher.newBuilder().setExact(method)));
        }
        return Route.newBuilder().setMatch(match).setRoute(RouteAction.newBuilder().setCluster(cluster)).build();
    }
}
