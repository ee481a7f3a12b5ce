package io.tollgate.server.transport;

/**
 * The names of the handlers in a downstream pipeline, in pipeline order:
 * <ol>
 *   <li>{@link #PROXY_PROTOCOL}: listeners with {@code proxy_protocol} only, connections from a
 *       trusted source only, the only handler until the connection's PROXY protocol header is read,
 *       then installs the others;</li>
 *   <li>{@link #ALPN_CHECK}: TLS listeners that offer ALPN only, present until the client's
 *       ClientHello is read, refuses clients that offer only names the listener does not serve;</li>
 *   <li>{@link #TLS}: TLS listeners only, decrypts and encrypts the connection's bytes;</li>
 *   <li>{@link #NETWORK_FILTERS}: listeners with network filters only, runs them on every byte
 *       read and written (after TLS: they see plaintext);</li>
 *   <li>{@link #SELECT}: TLS listeners only, present until the handshake is done, then installs
 *       the protocol agreed on by ALPN (or {@link #DETECT} when none was);</li>
 *   <li>{@link #DETECT}: present only until the protocol is known, when the listener serves more
 *       than one protocol; closes the connection when none is known in time;</li>
 *   <li>{@link #HEAD_GUARD}: HTTP/1 only, refuses request heads the codec would repair;</li>
 *   <li>{@link #CODEC}: the protocol's codec (its decoder, for protocols with separate halves); for
 *       HTTP/2 the connection handler, the only handler, which also watches idleness and proxies
 *       every stream;</li>
 *   <li>{@link #UPGRADE}: HTTP/1 on a listener that also serves h2c, turns an {@code Upgrade: h2c}
 *       request into an HTTP/2 connection (removing {@link #HEAD_GUARD} and the HTTP/1 codec);</li>
 *   <li>{@link #ENCODER}: the encoder of protocols whose codec comes in two halves (Bolt);</li>
 *   <li>{@link #IDLE}: closes connections idle too long (not on {@code tcp}: its proxy times itself);</li>
 *   <li>{@link #FIRST_FRAME}: RPC protocols only, present until the first frame is decoded, closes
 *       a connection that sends none in time;</li>
 *   <li>{@link #PROXY}: the protocol's proxy handler, always last (none for HTTP/2; the TCP proxy
 *       for {@code tcp}).</li>
 * </ol>
 * HTTP/2 streams have no channel of their own: the connection's {@link #CODEC} serves them all.
 */
public final class PipelineNames {

    public static final String PROXY_PROTOCOL = "proxy-protocol";
    public static final String ALPN_CHECK = "alpn-check";
    public static final String TLS = "tls";
    public static final String NETWORK_FILTERS = "network-filters";
    public static final String SELECT = "select";
    public static final String DETECT = "detect";
    public static final String HEAD_GUARD = "head-guard";
    public static final String CODEC = "codec";
    public static final String UPGRADE = "upgrade";
    public static final String ENCODER = "encoder";
    public static final String IDLE = "idle";
    public static final String FIRST_FRAME = "first-frame";
    public static final String PROXY = "proxy";

    private PipelineNames() {
    }
}
