package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * How a cluster of type {@code strict_dns} or {@code logical_dns} (Envoy's {@code STRICT_DNS} and
 * {@code LOGICAL_DNS}) finds its hosts: the host names of its endpoints are resolved again and again
 * by the gateway's own asynchronous resolver, never the JVM's cached {@code InetAddress} lookup.
 *
 * @param type whether every address is a host ({@link Type#STRICT}) or one host connects to the
 *     first address of the latest answer ({@link Type#LOGICAL})
 * @param refreshRate how often the names are resolved again
 * @param respectTtl whether the answer's smallest TTL (at least {@code minRefreshRate}) sets the
 *     next resolution instead of {@code refreshRate}
 * @param minRefreshRate the shortest interval a TTL may set
 * @param lookupFamily which address families are asked for
 * @param resolvers the name servers asked, as IP addresses; empty asks those of the system
 *     ({@code /etc/resolv.conf})
 * @param failureBaseInterval the first wait after a failed resolution; it doubles with each
 *     failure after it, up to {@code failureMaxInterval}
 * @param failureMaxInterval the longest wait between failed resolutions
 * @param queryTimeout how long one query waits for its answer
 */
public record DnsConfig(Type type, Duration refreshRate, boolean respectTtl, Duration minRefreshRate,
        LookupFamily lookupFamily, List<InetSocketAddress> resolvers, Duration failureBaseInterval,
        Duration failureMaxInterval, Duration queryTimeout) {

    /** Envoy's default {@code dns_refresh_rate} and {@code dns_min_refresh_rate}. */
    public static final Duration DEFAULT_REFRESH_RATE = Duration.ofSeconds(5);
    /** How long a query waits for its answer unless {@code dns_query_timeout} says otherwise. */
    public static final Duration DEFAULT_QUERY_TIMEOUT = Duration.ofSeconds(5);
    /** The first wait after a failure, unless the refresh rate is shorter. */
    public static final Duration DEFAULT_FAILURE_BASE_INTERVAL = Duration.ofSeconds(1);

    /** The two kinds of DNS cluster. */
    public enum Type {
        /** Every address of every name is a host of its own. */
        STRICT("strict_dns"),
        /** One host per cluster whose new connections go to the first address of the latest answer. */
        LOGICAL("logical_dns");

        private final String configName;

        Type(String configName) {
            this.configName = configName;
        }

        /** The cluster {@code type} that selects it. */
        public String configName() {
            return configName;
        }

        /** As the configuration writes it, e.g. in {@code /config_dump}. */
        @Override
        public String toString() {
            return configName;
        }
    }

    /** Envoy's {@code dns_lookup_family}: which record types are asked for, in which order. */
    public enum LookupFamily {
        /** A records only. */
        V4_ONLY("v4_only"),
        /** AAAA records only. */
        V6_ONLY("v6_only"),
        /** AAAA records; A records when there are none (Envoy's default). */
        AUTO("auto"),
        /** A records; AAAA records when there are none. */
        V4_PREFERRED("v4_preferred"),
        /** A and AAAA records, IPv4 addresses first. */
        ALL("all");

        private final String configName;

        LookupFamily(String configName) {
            this.configName = configName;
        }

        /** Its name in the configuration. */
        public String configName() {
            return configName;
        }

        /** As the configuration writes it, e.g. in {@code /config_dump}. */
        @Override
        public String toString() {
            return configName;
        }
    }

    public DnsConfig {
        requireNonNull(type, "type");
        requireNonNull(lookupFamily, "lookupFamily");
        resolvers = List.copyOf(resolvers);
        requirePositive("dns_refresh_rate", refreshRate);
        requirePositive("dns_min_refresh_rate", minRefreshRate);
        requirePositive("dns_failure_refresh_rate.base_interval", failureBaseInterval);
        requirePositive("dns_query_timeout", queryTimeout);
        if (failureMaxInterval.compareTo(failureBaseInterval) < 0) {
            throw new IllegalArgumentException("dns_failure_refresh_rate.max_interval: " + failureMaxInterval
                    + " (expected: at least base_interval " + failureBaseInterval + ")");
        }
        for (InetSocketAddress resolver : resolvers) {
            if (resolver.isUnresolved()) {
                throw new IllegalArgumentException("dns_resolvers: " + resolver + " (expected an IP address)");
            }
        }
    }

    /** A cluster of {@code type} with every other setting at its default. */
    public static DnsConfig defaults(Type type) {
        return new DnsConfig(type, DEFAULT_REFRESH_RATE, false, DEFAULT_REFRESH_RATE, LookupFamily.AUTO, List.of(),
                DEFAULT_FAILURE_BASE_INTERVAL, DEFAULT_REFRESH_RATE, DEFAULT_QUERY_TIMEOUT);
    }

    private static void requirePositive(String field, Duration value) {
        requireNonNull(value, field);
        if (value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(field + ": " + value + " (expected: positive)");
        }
    }
}
