package io.tollgate.xds.translation;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.core.v3.TypedExtensionConfig;
import io.envoyproxy.envoy.extensions.network.dns_resolver.cares.v3.CaresDnsResolverConfig;
import io.tollgate.core.config.EndpointConfig;
import java.util.Locale;
import java.util.Set;

/**
 * Translates what makes an Envoy {@code STRICT_DNS} or {@code LOGICAL_DNS} cluster: its type, the
 * host names of its {@code load_assignment} and its DNS settings ({@code dns_refresh_rate},
 * {@code respect_dns_ttl}, {@code dns_lookup_family}, {@code dns_failure_refresh_rate},
 * {@code dns_resolvers}) into the configuration file's keys, which the file's own checks then read.
 */
final class DnsClusterTranslator {

    /** The cluster fields only a DNS cluster may set. */
    static final Set<String> FIELDS = Set.of("dns_refresh_rate", "respect_dns_ttl", "dns_lookup_family",
            "dns_failure_refresh_rate", "dns_resolvers", "typed_dns_resolver_config", "dns_jitter");
    private static final String CARES = "envoy.network.dns_resolver.cares";

    private DnsClusterTranslator() {
    }

    /** Whether {@code cluster} is resolved by DNS. */
    static boolean isDns(Cluster cluster) {
        return cluster.getType() == Cluster.DiscoveryType.STRICT_DNS
                || cluster.getType() == Cluster.DiscoveryType.LOGICAL_DNS;
    }

    /** Writes the DNS cluster {@code cluster}'s type, endpoints and settings into {@code tree}. */
    static void translate(Cluster cluster, String at, ObjectNode tree) {
        tree.put("type", cluster.getType() == Cluster.DiscoveryType.STRICT_DNS ? "strict_dns" : "logical_dns");
        ArrayNode endpoints = tree.putArray("endpoints");
        for (EndpointConfig endpoint : EndpointTranslator.endpoints(cluster.getLoadAssignment(), at + ".load_assignment")) {
            ObjectNode node = endpoints.addObject().put("address", endpoint.address()).put("port", endpoint.port())
                    .put("weight", endpoint.weight());
            ObjectNode labels = node.putObject("labels");
            endpoint.labels().forEach(labels::put);
        }
        if (cluster.hasDnsRefreshRate()) {
            tree.put("dns_refresh_rate", Fields.duration(cluster.getDnsRefreshRate()));
        }
        if (cluster.getRespectDnsTtl()) {
            tree.put("respect_dns_ttl", true);
        }
        if (cluster.getDnsLookupFamily() == Cluster.DnsLookupFamily.UNRECOGNIZED) {
            throw new XdsRejection(at + ".dns_lookup_family: " + cluster.getDnsLookupFamilyValue() + " not supported");
        }
        tree.put("dns_lookup_family", cluster.getDnsLookupFamily().name().toLowerCase(Locale.ROOT));
        if (cluster.hasDnsFailureRefreshRate()) {
            Cluster.RefreshRate rate = cluster.getDnsFailureRefreshRate();
            Fields.allowOnly(rate, at + ".dns_failure_refresh_rate", Set.of("base_interval", "max_interval"));
            ObjectNode failure = tree.putObject("dns_failure_refresh_rate")
                    .put("base_interval", Fields.duration(rate.getBaseInterval()));
            if (rate.hasMaxInterval()) {
                failure.put("max_interval", Fields.duration(rate.getMaxInterval()));
            }
        }
        ArrayNode resolvers = tree.putArray("dns_resolvers");
        for (int i = 0; i < cluster.getDnsResolversCount(); i++) {
            resolvers.add(resolver(cluster.getDnsResolvers(i), at + ".dns_resolvers[" + i + "]"));
        }
        if (cluster.hasTypedDnsResolverConfig()) {
            caresTuning(cluster.getTypedDnsResolverConfig(), at + ".typed_dns_resolver_config");
        }
        if (cluster.hasDnsJitter()) {
            IstioExtensions.accepted("cluster dns_jitter", "spreads Envoy's DNS refreshes; the gateway refreshes"
                    + " each name on its own schedule");
        }
    }

    /**
     * Accepts Envoy's c-ares resolver with only its tuning set (Istio sends {@code udp_max_queries}):
     * the gateway resolves with its own resolver; name servers set there are refused.
     */
    private static void caresTuning(TypedExtensionConfig config, String at) {
        Fields.allowOnly(config, at, Set.of("name", "typed_config"));
        if (!config.getTypedConfig().is(CaresDnsResolverConfig.class)) {
            throw new XdsRejection(at + ": " + config.getTypedConfig().getTypeUrl() + " not supported (supported: "
                    + CARES + " with udp_max_queries only)");
        }
        try {
            Fields.allowOnly(config.getTypedConfig().unpack(CaresDnsResolverConfig.class), at + ".typed_config",
                    Set.of("udp_max_queries"));
        } catch (InvalidProtocolBufferException e) {
            throw new XdsRejection(at + ".typed_config: cannot be decoded: " + e.getMessage());
        }
        IstioExtensions.accepted("cluster typed_dns_resolver_config " + CARES, "caps c-ares' UDP queries; the gateway"
                + " resolves with its own resolver");
    }

    /** A name server's address as the file writes it: {@code ip:port}, {@code [ipv6]:port}. */
    private static String resolver(Address address, String at) {
        Fields.allowOnly(address, at, Set.of("socket_address"));
        SocketAddress socket = address.getSocketAddress();
        // the protocol is not read: queries go over UDP, and over TCP when an answer is truncated
        Fields.allowOnly(socket, at + ".socket_address", Set.of("address", "port_value", "protocol"));
        int port = socket.getPortValue() == 0 ? 53 : socket.getPortValue();
        String ip = socket.getAddress();
        return (ip.indexOf(':') >= 0 ? "[" + ip + "]" : ip) + ":" + port;
    }
}
