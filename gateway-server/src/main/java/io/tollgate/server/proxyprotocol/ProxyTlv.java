package io.tollgate.server.proxyprotocol;

/**
 * One type-length-value field of a PROXY protocol v2 header, kept as it came (e.g. {@link #AUTHORITY},
 * the server name the client asked the balancer for, or {@link #SSL}, what the balancer's TLS saw).
 *
 * @param type the field's type, 0..255
 * @param value its bytes (the array is the record's: do not change it)
 */
public record ProxyTlv(int type, byte[] value) {

    /** The ALPN name the client agreed on with the balancer. */
    public static final int ALPN = 0x01;
    /** The host name the client asked for (its TLS SNI, on a TLS balancer). */
    public static final int AUTHORITY = 0x02;
    /** A CRC32c of the whole header, checked when present. */
    public static final int CRC32C = 0x03;
    /** Padding. */
    public static final int NOOP = 0x04;
    /** An opaque id of the connection given by the balancer. */
    public static final int UNIQUE_ID = 0x05;
    /** What the balancer's TLS session saw, with sub-fields. */
    public static final int SSL = 0x20;
    /** The network namespace the balancer accepted the connection in. */
    public static final int NETNS = 0x30;
}
