package io.tollgate.server.xds;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import java.util.Map;

/** Envoy v3 resources as a control plane would send them, built for the tests. */
final class EnvoyResources {

    private static final ConfigSource ADS = ConfigSource.newBuilder()
            .setAds(AggregatedConfigSource.getDefaultInstance()).build();

    private EnvoyResources() {
    }

    static Cluster edsCluster(String name) {
        return Cluster.newBuilder().setName(name).setType(Cluster.DiscoveryType.EDS)
                .setEdsClusterConfig(Cluster.EdsClusterConfig.newBuilder().setEdsConfig(ADS))
                .setConnectTimeout(com.google.protobuf.Duration.newBuilder().setSeconds(1)).build();
    }

    static Cluster staticCluster(String name, int... ports) {
        return Cluster.newBuilder().setName(name).setType(Cluster.DiscoveryType.STATIC)
                .setLoadAssignment(assignment(name, ports)).build();
    }

    static ClusterLoadAssignment assignment(String cluster, int... ports) {
        LocalityLbEndpoints.Builder locality = LocalityLbEndpoints.newBuilder();
        for (int port : ports) {
            locality.addLbEndpoints(LbEndpoint.newBuilder().setEndpoint(Endpoint.newBuilder().setAddress(address(port))));
        }
        return ClusterLoadAssignment.newBuilder().setClusterName(cluster).addEndpoints(locality).build();
    }

    static Listener rdsListener(String name, int port, String routes) {
        return listener(name, port, HttpConnectionManager.newBuilder()
                .setRds(Rds.newBuilder().setRouteConfigName(routes).setConfigSource(ADS)));
    }

    static Listener inlineListener(String name, int port, RouteConfiguration routes) {
        return listener(name, port, HttpConnectionManager.newBuilder().setRouteConfig(routes));
    }

    private static Listener listener(String name, int port, HttpConnectionManager.Builder hcm) {
        hcm.setStatPrefix(name).addHttpFilters(HttpFilter.newBuilder().setName("envoy.filters.http.router")
                .setTypedConfig(Any.pack(Router.getDefaultInstance())));
        return Listener.newBuilder().setName(name).setAddress(address(port))
                .addFilterChains(FilterChain.newBuilder().addFilters(Filter.newBuilder()
                        .setName("envoy.filters.network.http_connection_manager").setTypedConfig(Any.pack(hcm.build()))))
                .build();
    }

    /** Routes by path prefix to clusters, in the map's order, for any domain. */
    static RouteConfiguration routes(String name, Map<String, String> clusterByPrefix) {
        VirtualHost.Builder host = VirtualHost.newBuilder().setName("all").addDomains("*");
        clusterByPrefix.forEach((prefix, cluster) -> host.addRoutes(Route.newBuilder()
                .setMatch(RouteMatch.newBuilder().setPrefix(prefix))
                .setRoute(RouteAction.newBuilder().setCluster(cluster))));
        return RouteConfiguration.newBuilder().setName(name).addVirtualHosts(host).build();
    }

    static Address address(int port) {
        return Address.newBuilder().setSocketAddress(SocketAddress.newBuilder().setAddress("127.0.0.1")
                .setPortValue(port)).build();
    }
}
