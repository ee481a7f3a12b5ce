package io.tollgate.server.proxyprotocol;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * What a PROXY protocol header said about one downstream connection. A {@code PROXY} command over
 * TCP carries the client's address ({@link #source}) and the address the client connected to
 * ({@link #destination}); a {@code LOCAL} command (the balancer's own health check) and an
 * {@code UNKNOWN} or non-IP family carry none, and the connection's own peer stays its client.
 *
 * @param version 1 or 2
 * @param local whether the v2 command was {@code LOCAL}
 * @param source the client's address and port, or null when the header carries none
 * @param destination the address and port the client connected to, or null with {@code source}
 * @param tlvs the v2 header's fields, in order (empty for v1)
 */
public record ProxyHeader(int version, boolean local, InetSocketAddress source, InetSocketAddress destination,
        List<ProxyTlv> tlvs) {

    public ProxyHeader {
        tlvs = List.copyOf(tlvs);
        if ((source == null) != (destination == null)) {
            throw new IllegalArgumentException("source and destination: both or neither");
        }
    }

    /** Whether the header carries the client's address. */
    public boolean carriesAddress() {
        return source != null;
    }

    /** The value of the first field of {@code type}, or null when the header has none. */
    public byte[] tlv(int type) {
        for (ProxyTlv tlv : tlvs) {
            if (tlv.type() == type) {
                return tlv.value();
            }
        }
        return null;
    }
}
