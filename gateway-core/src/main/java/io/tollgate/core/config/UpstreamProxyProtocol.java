package io.tollgate.core.config;

import java.util.Optional;

/**
 * The PROXY protocol header a cluster's hosts expect at the start of every connection the TCP
 * proxy opens to them (Envoy's upstream {@code proxy_protocol} transport socket, HAProxy's
 * {@code send-proxy} and {@code send-proxy-v2}): the version, carrying the downstream client's
 * address and the address it connected to.
 */
public enum UpstreamProxyProtocol {
    /** The text header, {@code PROXY TCP4 ...\r\n}. */
    V1,
    /** The binary header. */
    V2;

    /** Reads a cluster's {@code proxy_protocol}: {@code v1} or {@code v2}, or nothing. */
    public static Optional<UpstreamProxyProtocol> parse(ConfigNode cluster) {
        return cluster.optionalString("proxy_protocol").map(version -> switch (version) {
            case "v1" -> V1;
            case "v2" -> V2;
            default -> throw cluster.child("proxy_protocol").error("'" + version + "' (expected v1 or v2)");
        });
    }
}
