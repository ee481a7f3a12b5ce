package io.tollgate.core.config.read;

import io.netty.util.NetUtil;
import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.DnsConfig;
import io.tollgate.core.config.EndpointConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a cluster's {@code type} and its DNS settings ({@code dns_refresh_rate} and the rest), which
 * only {@code strict_dns} and {@code logical_dns} clusters may carry.
 */
final class DnsConfigLoader {

    /** The keys of a cluster this loader reads. */
    static final Set<String> KEYS = Set.of("type", "dns_refresh_rate", "respect_dns_ttl", "dns_min_refresh_rate",
            "dns_lookup_family", "dns_resolvers", "dns_failure_refresh_rate", "dns_query_timeout");
    private static final String STATIC = "static";
    private static final int DNS_PORT = 53;

    private DnsConfigLoader() {
    }

    /**
     * The DNS settings of cluster {@code n} whose endpoints are {@code endpoints}, or empty for a
     * {@code static} cluster (the default).
     */
    static Optional<DnsConfig> dns(ConfigNode n, List<EndpointConfig> endpoints) {
        String typeName = n.string("type", STATIC);
        if (STATIC.equals(typeName) || OriginalDstReader.TYPE.equals(typeName)) {
            for (String key : KEYS) {
                if (!key.equals("type") && n.has(key)) {
                    throw n.child(key).error("only applies to type strict_dns or logical_dns (type is " + typeName + ")");
                }
            }
            return Optional.empty();
        }
        DnsConfig.Type type = Arrays.stream(DnsConfig.Type.values()).filter(t -> t.configName().equals(typeName))
                .findFirst().orElseThrow(() -> n.child("type").error("unknown type '" + typeName
                        + "' (expected one of [static, strict_dns, logical_dns, original_dst])"));
        if (endpoints.isEmpty()) {
            throw n.child("endpoints").error("a " + typeName + " cluster needs at least one endpoint to resolve");
        }
        if (type == DnsConfig.Type.LOGICAL && endpoints.size() != 1) {
            throw n.child("endpoints").error("a logical_dns cluster has exactly one endpoint (found "
                    + endpoints.size() + ")");
        }
        Duration refresh = n.positiveDuration("dns_refresh_rate", DnsConfig.DEFAULT_REFRESH_RATE);
        Duration base = min(DnsConfig.DEFAULT_FAILURE_BASE_INTERVAL, refresh);
        Duration max = refresh.compareTo(base) < 0 ? base : refresh;
        Optional<ConfigNode> failure = n.optional("dns_failure_refresh_rate");
        if (failure.isPresent()) {
            ConfigNode f = failure.get();
            f.allowOnly(Set.of("base_interval", "max_interval"));
            base = f.positiveDuration("base_interval", base);
            max = f.positiveDuration("max_interval", base.multipliedBy(10));
            if (max.compareTo(base) < 0) {
                throw f.child("max_interval").error("must be at least base_interval (" + base + ")");
            }
        }
        String familyName = n.string("dns_lookup_family", DnsConfig.LookupFamily.AUTO.configName());
        DnsConfig.LookupFamily family = Arrays.stream(DnsConfig.LookupFamily.values())
                .filter(f -> f.configName().equals(familyName)).findFirst()
                .orElseThrow(() -> n.child("dns_lookup_family").error("unknown family '" + familyName
                        + "' (expected one of [v4_only, v6_only, auto, v4_preferred, all])"));
        return Optional.of(new DnsConfig(type, refresh, n.bool("respect_dns_ttl", false),
                n.positiveDuration("dns_min_refresh_rate", DnsConfig.DEFAULT_REFRESH_RATE), family,
                n.list("dns_resolvers", DnsConfigLoader::resolver), base, max,
                n.positiveDuration("dns_query_timeout", DnsConfig.DEFAULT_QUERY_TIMEOUT)));
    }

    /** A name server written {@code 10.0.0.2}, {@code 10.0.0.2:5353}, {@code ::1} or {@code [::1]:5353}. */
    private static InetSocketAddress resolver(ConfigNode n) {
        String text = n.asString().trim();
        String host = text;
        int port = DNS_PORT;
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            if (close < 0) {
                throw n.error("'" + text + "' is not an IP address (expected e.g. 10.0.0.2:53 or [::1]:53)");
            }
            host = text.substring(1, close);
            port = port(n, text, text.substring(close + 1));
        } else if (text.indexOf(':') == text.lastIndexOf(':') && text.indexOf(':') >= 0) {
            host = text.substring(0, text.indexOf(':'));
            port = port(n, text, text.substring(text.indexOf(':')));
        }
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(host);
        if (bytes == null) {
            throw n.error("'" + text + "' is not an IP address (expected e.g. 10.0.0.2:53 or [::1]:53; a name server"
                    + " is never looked up by name)");
        }
        try {
            return new InetSocketAddress(InetAddress.getByAddress(bytes), port);
        } catch (UnknownHostException e) {
            throw n.error("'" + text + "' is not an IP address");
        }
    }

    /** The port after the address: {@code suffix} is empty (port 53) or {@code :PORT}. */
    private static int port(ConfigNode n, String text, String suffix) {
        if (suffix.isEmpty()) {
            return DNS_PORT;
        }
        try {
            int port = suffix.startsWith(":") ? Integer.parseInt(suffix.substring(1)) : -1;
            if (port >= 1 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw n.error("'" + text + "' has no valid port (expected 1..65535)");
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
