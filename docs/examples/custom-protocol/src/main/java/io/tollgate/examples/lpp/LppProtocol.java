package io.tollgate.examples.lpp;

import io.tollgate.protocols.rpc.RpcFrame;

/**
 * The LPP wire format (length-prefixed protocol) in one place, so that the codec, the frame view
 * and the writer agree on every byte.
 *
 * <p>All integers are big-endian. Every frame, whatever its kind, has the same layout:
 * <pre>
 * 0      1      2      3      4      5                                                 13
 * +------+------+------+------+------+-------------------------------------------------+
 * | 0xca | 0xfe | ver  | kind | stat |               request id (int64)                |
 * +------+------+------+------+------+-------------------------------------------------+
 * 13            15                  15+s          17+s                17+s+m
 * +-------------+-------------------+-------------+-------------------+
 * | service len |  service (UTF-8)  | method len  |  method (UTF-8)   |
 * | (uint16) s  |      s bytes      | (uint16) m  |      m bytes      |
 * +-------------+-------------------+-------------+-------------------+
 * 17+s+m                      21+s+m                    21+s+m+b
 * +---------------------------+-------------------------+
 * |     body len (int32) b    |    body (b bytes)       |
 * +---------------------------+-------------------------+
 * </pre>
 * <ul>
 *   <li>{@code ver}: {@value #VERSION}, the only version;</li>
 *   <li>{@code kind}: 1 request, 2 oneway request, 3 response, 4 heartbeat, 5 heartbeat ack
 *       ({@link #kindOf});</li>
 *   <li>{@code stat}: the response status ({@link LppStatus}); 0 in requests and heartbeats;</li>
 *   <li>{@code request id}: chosen by the sender of a request, echoed by its response;</li>
 *   <li>service and method: what routing reads; empty in responses and heartbeats;</li>
 *   <li>body: opaque bytes, never read by the gateway.</li>
 * </ul>
 * The smallest frame, a heartbeat, is {@value #MIN_FRAME_LENGTH} bytes. No other protocol the
 * gateway serves starts with {@code 0xca}: HTTP/1 starts with an ASCII letter, the HTTP/2 preface
 * with {@code P}, TLS with {@code 0x16}, Bolt with {@code 0x01} or {@code 0x02}, Dubbo with
 * {@code 0xda}; so LPP shares a port with any of them.
 */
public final class LppProtocol {

    /** The protocol's registered name, as written in the configuration ({@code protocols: [lpp]}). */
    public static final String NAME = "lpp";

    /** The protocol as the access log names it. */
    public static final String LOG_NAME = "LPP/1";

    /** First magic byte. */
    public static final byte MAGIC_0 = (byte) 0xca;
    /** Second magic byte. */
    public static final byte MAGIC_1 = (byte) 0xfe;
    /** The only version. */
    public static final byte VERSION = 1;

    /** Offset of the version byte. */
    public static final int VERSION_OFFSET = 2;
    /** Offset of the kind byte. */
    public static final int KIND_OFFSET = 3;
    /** Offset of the status byte. */
    public static final int STATUS_OFFSET = 4;
    /** Offset of the 64-bit request id. */
    public static final int REQUEST_ID_OFFSET = 5;
    /** Offset of the service name's 16-bit length, the first length of a frame. */
    public static final int SERVICE_LENGTH_OFFSET = 13;
    /** Offset of the service name. */
    public static final int SERVICE_OFFSET = 15;
    /** The bytes of a frame besides its service, method and body: the head and the three lengths. */
    public static final int MIN_FRAME_LENGTH = SERVICE_OFFSET + 2 + 4;

    /** Kind code of a request, answered by a response with its id. */
    public static final byte KIND_REQUEST = 1;
    /** Kind code of a oneway request, never answered. */
    public static final byte KIND_ONEWAY = 2;
    /** Kind code of a response. */
    public static final byte KIND_RESPONSE = 3;
    /** Kind code of a heartbeat, answered by a heartbeat ack with its id. */
    public static final byte KIND_HEARTBEAT = 4;
    /** Kind code of a heartbeat ack. */
    public static final byte KIND_HEARTBEAT_ACK = 5;

    /** The largest frame, the default of a listener's {@code lpp: { max_frame_bytes }} and of upstream connections: 1 MiB. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 1 << 20;

    private LppProtocol() {
    }

    /** What a frame with the kind code {@code code} is, or null for a code LPP does not define. */
    public static RpcFrame.Kind kindOf(int code) {
        return switch (code) {
            case KIND_REQUEST -> RpcFrame.Kind.REQUEST;
            case KIND_ONEWAY -> RpcFrame.Kind.ONEWAY;
            case KIND_RESPONSE -> RpcFrame.Kind.RESPONSE;
            case KIND_HEARTBEAT -> RpcFrame.Kind.HEARTBEAT;
            case KIND_HEARTBEAT_ACK -> RpcFrame.Kind.HEARTBEAT_ACK;
            default -> null;
        };
    }

    /** The kind code a frame of {@code kind} is written with. */
    public static byte codeOf(RpcFrame.Kind kind) {
        return switch (kind) {
            case REQUEST -> KIND_REQUEST;
            case ONEWAY -> KIND_ONEWAY;
            case RESPONSE -> KIND_RESPONSE;
            case HEARTBEAT -> KIND_HEARTBEAT;
            case HEARTBEAT_ACK -> KIND_HEARTBEAT_ACK;
        };
    }
}
