package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.util.Set;

/**
 * One source of the hash by which {@code ring_hash} and {@code maglev} pick a host, so that the
 * requests of one user, session or RPC key keep going to the same host.
 *
 * @param source what is hashed
 * @param name the header or cookie name (lower case for headers); empty for {@link Source#SOURCE_IP}
 * @param terminal when this source yields a value, the sources after it are not consulted
 */
public record HashPolicyConfig(Source source, String name, boolean terminal) {

    /** What a hash policy reads from the request. */
    public enum Source {
        /** The first value of a request header. */
        HEADER,
        /** The value of one cookie of the {@code cookie} header. */
        COOKIE,
        /** The client's IP address, without the port. */
        SOURCE_IP,
        /** For RPC: the {@code service} header together with the header {@code name} (a call parameter). */
        RPC_HEADER
    }

    /** The header that names the RPC service, hashed by {@link Source#RPC_HEADER} before the parameter. */
    public static final String RPC_SERVICE_HEADER = "service";

    public HashPolicyConfig {
        requireNonNull(source, "source");
        requireNonNull(name, "name");
        if (name.isEmpty() != (source == Source.SOURCE_IP)) {
            throw new IllegalArgumentException("name: '" + name + "' (expected a name exactly when source is not "
                    + Source.SOURCE_IP + ", source is " + source + ")");
        }
    }

    /**
     * Reads one element of a {@code hash_policy} list, a route's or a hashing policy's: one of
     * {@code header: name}, {@code cookie: name}, {@code source_ip: true}, {@code rpc_header: name}.
     */
    public static HashPolicyConfig parse(ConfigNode n) {
        n.allowOnly(Set.of("header", "cookie", "source_ip", "rpc_header", "terminal"));
        int kinds = (n.has("header") ? 1 : 0) + (n.has("cookie") ? 1 : 0) + (n.has("source_ip") ? 1 : 0)
                + (n.has("rpc_header") ? 1 : 0);
        if (kinds != 1) {
            throw n.error("needs exactly one of header, cookie, source_ip, rpc_header (found " + kinds + ")");
        }
        boolean terminal = n.bool("terminal", false);
        if (n.has("header")) {
            return new HashPolicyConfig(Source.HEADER, ConfigChecks.headerName(n.child("header"), n.string("header")),
                    terminal);
        }
        if (n.has("rpc_header")) {
            return new HashPolicyConfig(Source.RPC_HEADER,
                    ConfigChecks.headerName(n.child("rpc_header"), n.string("rpc_header")), terminal);
        }
        if (n.has("cookie")) {
            String cookie = n.string("cookie");
            if (cookie.isEmpty() || cookie.indexOf('=') >= 0 || cookie.indexOf(';') >= 0 || cookie.indexOf(' ') >= 0) {
                throw n.child("cookie").error("'" + cookie + "' is not a cookie name");
            }
            return new HashPolicyConfig(Source.COOKIE, cookie, terminal);
        }
        if (!n.bool("source_ip", false)) {
            throw n.child("source_ip").error("must be true when given");
        }
        return new HashPolicyConfig(Source.SOURCE_IP, "", terminal);
    }
}
