package io.tollgate.protocols.dubbo;

/**
 * The Dubbo wire format (the "dubbo" protocol of Dubbo 2.x and 3.x) in one place, so that the codec,
 * the frame view, the writers and the detector agree on every byte.
 *
 * <p>All integers are big-endian.
 *
 * <h2>Frame</h2>
 * <pre>
 * 16-byte header, then the body (serialized with the serialization the flag names)
 * 0     1     2     3     4     5     6     7     8     9     10    11    12    13    14    15
 * +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+
 * |   magic   |flag |stat |              requestId (int64)                |  bodyLength (int32)   |
 * +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+
 * 16
 * +-----------------------+
 * | body                  |
 * +-----------------------+
 *
 * flag
 *   7        6        5        4 ... 0
 * +--------+--------+--------+--------------------+
 * |request |two-way | event  | serialization id   |
 * +--------+--------+--------+--------------------+
 * </pre>
 * {@code stat} is the response status ({@link DubboStatus}); requests leave it 0.
 *
 * <h2>Kinds</h2>
 * <table>
 *   <caption>what a frame is, from its flag alone</caption>
 *   <tr><th>request</th><th>two-way</th><th>event</th><th>kind</th><th>Dubbo sends it as</th></tr>
 *   <tr><td>1</td><td>1</td><td>0</td><td>REQUEST</td><td>a call</td></tr>
 *   <tr><td>1</td><td>0</td><td>0</td><td>ONEWAY</td><td>a oneway call</td></tr>
 *   <tr><td>1</td><td>1</td><td>1</td><td>HEARTBEAT</td><td>a heartbeat, body null</td></tr>
 *   <tr><td>1</td><td>0</td><td>1</td><td>ONEWAY</td><td>the provider's readonly {@code "R"} and
 *       writeable {@code "W"} events on graceful shutdown</td></tr>
 *   <tr><td>0</td><td>any</td><td>0</td><td>RESPONSE</td><td>a response</td></tr>
 *   <tr><td>0</td><td>any</td><td>1</td><td>HEARTBEAT_ACK</td><td>a heartbeat response, body null</td></tr>
 * </table>
 * Dubbo sends only heartbeats as two-way events, and a two-way event's sender waits for an answer
 * with its id whatever its body, so every two-way event is a heartbeat; oneway events (readonly,
 * writeable) expect nothing and are oneway requests without a routing view ({@link DubboFrame#isEvent()}).
 *
 * <h2>Request body (hessian2)</h2>
 * Five strings (dubbo version {@code 2.0.2}, service path, service version, method name, parameter
 * descriptor such as {@code Ljava/lang/String;[I}), one value per JVM type in the descriptor (the
 * arguments), then the attachments map ({@code interface}, {@code version}, {@code group},
 * {@code timeout}, {@code path} ...). The service version may be hessian2 null. See
 * {@link DubboInvocation}.
 *
 * <h2>Response body (hessian2)</h2>
 * Status {@link DubboStatus#OK}: a type int (0 exception, 1 value, 2 null, 3 to 5 the same followed by
 * an attachments map), then the value or exception. Any other status: the error message, one
 * hessian2 string, which a Dubbo consumer reads with the serialization the response's flag names.
 * Heartbeats and their responses carry the serialization's null ({@code N} in hessian2).
 *
 * <h2>What the gateway answers by itself</h2>
 * <table>
 *   <caption>{@link DubboCodec#errorReply} statuses and what a Dubbo 3.3 consumer makes of them</caption>
 *   <tr><th>gateway error</th><th>status</th><th>message</th><th>the consumer's
 *       {@code RpcException}</th></tr>
 *   <tr><td>NO_ROUTE</td><td>60 SERVICE_NOT_FOUND</td><td>tollgate: no route</td>
 *       <td>NETWORK_EXCEPTION</td></tr>
 *   <tr><td>NO_HEALTHY_UPSTREAM</td><td>60 SERVICE_NOT_FOUND</td><td>tollgate: no healthy upstream</td>
 *       <td>NETWORK_EXCEPTION</td></tr>
 *   <tr><td>OVERFLOW</td><td>100 SERVER_THREADPOOL_EXHAUSTED_ERROR</td><td>tollgate: upstream
 *       overflow</td><td>NETWORK_EXCEPTION</td></tr>
 *   <tr><td>TIMEOUT</td><td>31 SERVER_TIMEOUT</td><td>tollgate: upstream timeout</td>
 *       <td>TIMEOUT_EXCEPTION (a server-side {@code TimeoutException})</td></tr>
 *   <tr><td>CONNECTION_CLOSED</td><td>50 BAD_RESPONSE</td><td>tollgate: upstream connection
 *       closed</td><td>NETWORK_EXCEPTION</td></tr>
 *   <tr><td>MALFORMED</td><td>40 BAD_REQUEST</td><td>tollgate: malformed request</td>
 *       <td>NETWORK_EXCEPTION</td></tr>
 * </table>
 * A Dubbo consumer ({@code DefaultFuture}) turns 30 and 31 into a {@code TimeoutException}, 25 into a
 * {@code SerializationException}, and every other status into a {@code RemotingException} carrying
 * the message, which its invoker reports as an {@code RpcException} with {@code NETWORK_EXCEPTION};
 * its failover cluster retries all of them. Only the timeout's status therefore changes what the
 * consumer does; the others are chosen for what they say to whoever reads them: 60 as MOSN answers
 * no route and no healthy host, 100 for a busy upstream as a Dubbo provider reports its own full
 * thread pool, 40 as a provider answers a request it cannot decode, 50 ("the response could not be
 * produced") for a connection that closed before the response. The message names the condition
 * only, since the request may be gone when the answer is written.
 *
 * <h2>Limits and defaults</h2>
 * <table>
 *   <caption>checked by {@link DubboCodec#decode} on the 16-byte header, before the body is awaited</caption>
 *   <tr><th>limit</th><th>default</th><th>where</th></tr>
 *   <tr><td>body length (Dubbo's own {@code payload} setting)</td><td>8 MiB (8388608 bytes), as in Dubbo;
 *       a negative length or one over the limit is malformed</td>
 *       <td>{@link DubboCodec#DubboCodec(int)}</td></tr>
 *   <tr><td>hessian2 nesting skipped over in the arguments</td><td>64 levels</td>
 *       <td>{@link #MAX_HESSIAN2_DEPTH}</td></tr>
 *   <tr><td>serialization of gateway-made frames</td><td>hessian2 (2)</td>
 *       <td>{@link #SERIALIZATION_HESSIAN2}</td></tr>
 * </table>
 */
public final class DubboProtocol {

    /** The protocol's registered name, as written in the configuration. */
    public static final String NAME = "dubbo";

    /** The protocol as the access log names it. */
    public static final String LOG_NAME = "DUBBO";

    /** The two magic bytes every frame starts with. */
    public static final short MAGIC = (short) 0xdabb;
    /** First magic byte. */
    public static final byte MAGIC_HIGH = (byte) 0xda;
    /** Second magic byte. */
    public static final byte MAGIC_LOW = (byte) 0xbb;

    /** Flag bit of a request (clear in responses). */
    public static final int FLAG_REQUEST = 0x80;
    /** Flag bit of a request whose sender waits for a response. */
    public static final int FLAG_TWO_WAY = 0x40;
    /** Flag bit of an event (heartbeat, readonly) rather than a call. */
    public static final int FLAG_EVENT = 0x20;
    /** Mask of the serialization id in the flag. */
    public static final int SERIALIZATION_MASK = 0x1f;

    /** Serialization id of hessian2, Dubbo's default. */
    public static final byte SERIALIZATION_HESSIAN2 = 2;
    /**
     * Serialization id of fastjson2, which consumers negotiate when a provider's registered
     * {@code prefer.serialization} names it first (Dubbo 3.2's default); its body is read for
     * routing, its attachments are not rewritten.
     */
    public static final byte SERIALIZATION_FASTJSON2 = 23;

    /** Length of the fixed header. */
    public static final int HEADER_LENGTH = 16;
    /** Offset of the flag byte. */
    public static final int FLAG_OFFSET = 2;
    /** Offset of the status byte. */
    public static final int STATUS_OFFSET = 3;
    /** Offset of the 64-bit request id. */
    public static final int REQUEST_ID_OFFSET = 4;
    /** Offset of the 32-bit body length. */
    public static final int BODY_LENGTH_OFFSET = 12;

    /** Dubbo's default {@code payload} limit on a body, 8 MiB. */
    public static final int DEFAULT_PAYLOAD_LIMIT = 8 * 1024 * 1024;

    /** How deep hessian2 lists, maps and objects may nest in the values the routing view skips. */
    public static final int MAX_HESSIAN2_DEPTH = 64;

    /** The hessian2 null, the body of heartbeats and their responses. */
    public static final byte HESSIAN2_NULL = 'N';

    /** Attachment naming the called interface, which overrides the body's service path for routing. */
    public static final String ATTACHMENT_INTERFACE = "interface";
    /** Attachment naming the service path; the body carries it too. */
    public static final String ATTACHMENT_PATH = "path";
    /** Attachment naming the service version; the body carries it too. */
    public static final String ATTACHMENT_VERSION = "version";
    /** Attachment naming the service group. */
    public static final String ATTACHMENT_GROUP = "group";
    /** Attachment with the caller's timeout in milliseconds, a decimal string. */
    public static final String ATTACHMENT_TIMEOUT = "timeout";
    /** Attachment with the dubbo protocol version; the body carries it too. */
    public static final String ATTACHMENT_DUBBO_VERSION = "dubbo";

    private DubboProtocol() {
    }
}
