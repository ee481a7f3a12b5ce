package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A listener's PROXY protocol (v1 or v2, HAProxy's): behind an L4 balancer every connection comes
 * from the balancer, which tells the client's own address in a header before the connection's first
 * byte (before a TLS ClientHello too). Only a connection from one of {@code trustedSources} may
 * carry a header; its address then stands for the client everywhere.
 *
 * @param mode whether a trusted source must send a header ({@link Mode#REQUIRED}) or may
 *     ({@link Mode#OPTIONAL}); from an untrusted source a required header refuses the connection,
 *     an optional one is not looked for (the bytes are the protocol's)
 * @param trustedSources the balancers' address ranges; never empty
 * @param timeout how long a trusted source may take to send the whole header
 */
public record ProxyProtocolConfig(Mode mode, List<CidrRange> trustedSources, Duration timeout) {

    /** HAProxy's and Envoy's patience with a client's first bytes is a few seconds. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    /** The keys of a listener's {@code proxy_protocol} block. */
    private static final Set<String> KEYS = Set.of("mode", "trusted_sources", "timeout");

    /** Whether a trusted source must send a header. */
    public enum Mode {
        /** Every connection from a trusted source starts with a header; others are refused. */
        REQUIRED,
        /** A connection from a trusted source may start with a header; one without is served as it comes. */
        OPTIONAL
    }

    public ProxyProtocolConfig {
        requireNonNull(mode, "mode");
        trustedSources = List.copyOf(trustedSources);
        if (trustedSources.isEmpty()) {
            throw new IllegalArgumentException("trustedSources: empty (expected at least one range)");
        }
        requireNonNull(timeout, "timeout");
    }

    /** Whether a connection from {@code peer} may carry a header. */
    public boolean trusts(InetAddress peer) {
        for (CidrRange range : trustedSources) {
            if (range.matches(peer)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Reads a listener's {@code proxy_protocol} block: {@code mode} ({@code required} or
     * {@code optional}), {@code trusted_sources} (a list of ranges, required) and {@code timeout}.
     */
    public static Optional<ProxyProtocolConfig> parse(ConfigNode listener) {
        return listener.optional("proxy_protocol").map(n -> {
            n.allowOnly(KEYS);
            String mode = n.string("mode");
            Mode parsed = switch (mode) {
                case "required" -> Mode.REQUIRED;
                case "optional" -> Mode.OPTIONAL;
                default -> throw n.child("mode").error("'" + mode + "' (expected required or optional)");
            };
            List<CidrRange> trusted = n.list("trusted_sources", CidrRange::parse);
            if (trusted.isEmpty()) {
                throw n.child("trusted_sources").error("must list the balancers' address ranges (e.g. [10.0.0.0/8];"
                        + " [0.0.0.0/0, \"::/0\"] trusts every source)");
            }
            return new ProxyProtocolConfig(parsed, trusted, n.positiveDuration("timeout", DEFAULT_TIMEOUT));
        });
    }
}
