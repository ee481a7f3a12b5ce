package io.tollgate.server;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.DataSource;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.core.v3.TransportSocket;
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
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CertificateValidationContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CommonTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.SdsSecretConfig;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.TlsCertificate;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.tollgate.server.testing.TestPki;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
        return rdsListener(name, port, routes, HttpConnectionManager.CodecType.AUTO);
    }

    static Listener rdsListener(String name, int port, String routes, HttpConnectionManager.CodecType codec) {
        return listener(name, port, HttpConnectionManager.newBuilder().setCodecType(codec)
                .setRds(Rds.newBuilder().setRouteConfigName(routes).setConfigSource(ADS)));
    }

    /** Listener {@code name} whose routes come from RDS, running {@code filters} before the router. */
    static Listener rdsListener(String name, int port, String routes, HttpFilter... filters) {
        return listener(name, port, HttpConnectionManager.newBuilder()
                .setRds(Rds.newBuilder().setRouteConfigName(routes).setConfigSource(ADS)), filters);
    }

    /** Listener {@code name} serving {@code routes}, running {@code filters} before the router. */
    static Listener inlineListener(String name, int port, RouteConfiguration routes, HttpFilter... filters) {
        return listener(name, port, HttpConnectionManager.newBuilder().setRouteConfig(routes), filters);
    }

    /** An HTTP filter named {@code name} configured with {@code config}. */
    static HttpFilter httpFilter(String name, com.google.protobuf.Message config) {
        return HttpFilter.newBuilder().setName(name).setTypedConfig(Any.pack(config)).build();
    }

    private static Listener listener(String name, int port, HttpConnectionManager.Builder hcm, HttpFilter... filters) {
        for (HttpFilter filter : filters) {
            hcm.addHttpFilters(filter);
        }
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

    /** Listener {@code name} over TLS presenting SDS secret {@code certificate}, routes from RDS. */
    static Listener tlsListener(String name, int port, String routes, String certificate) {
        Listener plain = rdsListener(name, port, routes);
        return plain.toBuilder().setFilterChains(0, plain.getFilterChains(0).toBuilder()
                .setTransportSocket(downstreamTls(certificate))).build();
    }

    /** A TLS transport socket presenting SDS secret {@code certificate}. */
    static TransportSocket downstreamTls(String certificate) {
        return TransportSocket.newBuilder().setName("envoy.transport_sockets.tls").setTypedConfig(Any.pack(
                DownstreamTlsContext.newBuilder().setCommonTlsContext(CommonTlsContext.newBuilder()
                        .addTlsCertificateSdsSecretConfigs(sds(certificate))).build())).build();
    }

    /** A cluster of static endpoints reached over TLS: {@code sni}, the hosts checked against SDS secret {@code ca}, presenting SDS secret {@code client}. */
    static Cluster tlsCluster(String name, String sni, String ca, String client, int... ports) {
        return staticCluster(name, ports).toBuilder().setTransportSocket(TransportSocket.newBuilder()
                .setName("envoy.transport_sockets.tls").setTypedConfig(Any.pack(UpstreamTlsContext.newBuilder()
                        .setSni(sni).setCommonTlsContext(CommonTlsContext.newBuilder()
                                .setValidationContextSdsSecretConfig(sds(ca))
                                .addTlsCertificateSdsSecretConfigs(sds(client))).build()))).build();
    }

    static SdsSecretConfig sds(String name) {
        return SdsSecretConfig.newBuilder().setName(name).setSdsConfig(ADS).build();
    }

    /** SDS secret {@code name} holding the certificate and key of {@code pki} (a {@link TestPki} name), inline. */
    static Secret certificateSecret(String name, String pki) {
        return Secret.newBuilder().setName(name).setTlsCertificate(TlsCertificate.newBuilder()
                .setCertificateChain(DataSource.newBuilder().setInlineString(read(TestPki.cert(pki))))
                .setPrivateKey(DataSource.newBuilder().setInlineString(read(TestPki.key(pki))))).build();
    }

    /** SDS secret {@code name} trusting the certificate of {@code pki}. */
    static Secret caSecret(String name, String pki) {
        return Secret.newBuilder().setName(name).setValidationContext(CertificateValidationContext.newBuilder()
                .setTrustedCa(DataSource.newBuilder().setInlineString(read(TestPki.cert(pki))))).build();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
