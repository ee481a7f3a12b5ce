package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

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
}
