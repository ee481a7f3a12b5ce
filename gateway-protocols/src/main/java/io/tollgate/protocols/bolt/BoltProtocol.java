package io.tollgate.protocols.bolt;

/**
 * The SOFA Bolt wire format in one place, so that the decoder, the frame view, the writers and the
 * detector agree on every byte.
 *
 * <p>All integers are big-endian. Lengths are signed: {@code classLen} and {@code headerLen} are
 * int16, {@code contentLen} is int32; a negative length is a malformed frame.
 *
 * <h2>Bolt v1 (protocol code 0x01)</h2>
 * <pre>
 * request, oneway and heartbeat (22-byte fixed header)
 * 0     1     2     3     4     5     6     7     8     9     10    11    12    13    14    15
 * +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+
 * |proto|type | cmdcode   |ver2 |      requestId        |codec|       timeout         | classLen  |
 * +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+
 * 16    17    18    19    20    21    22
 * +-----+-----+-----+-----+-----+-----+-----------+-----------+-----------+
 * | headerLen | contentLen            | className | header    | content   |
 * +-----+-----+-----+-----+-----+-----+-----------+-----------+-----------+
 *
 * response and heartbeat acknowledgement (20-byte fixed header)
 * 0     1     2     3     4     5     6     7     8     9     10    11    12    13    14    15
 * +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+
 * |proto|type | cmdcode   |ver2 |      requestId        |codec|respStatus | classLen  | headerLen |
 * +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+
 * 16    17    18    19    20
 * +-----+-----+-----+-----+-----------+-----------+-----------+
 * | contentLen            | className | header    | content   |
 * +-----+-----+-----+-----+-----------+-----------+-----------+
 * </pre>
 *
 * <h2>Bolt v2 (protocol code 0x02)</h2>
 * <pre>
 * request, oneway and heartbeat (24-byte fixed header)
 * 0     1     2     3     4     5     6     7     8     9     10    11    12    13    14    15
 * +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+
 * |proto|ver1 |type | cmdcode   |ver2 |      requestId        |codec| sw  |       timeout         |
 * +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+
 * 16    17    18    19    20    21    22    23    24
 * +-----+-----+-----+-----+-----+-----+-----+-----+-----------+-----------+-----------+-----------+
 * | classLen  | headerLen | contentLen            | className | header    | content   |[CRC32]    |
 * +-----+-----+-----+-----+-----+-----+-----+-----+-----------+-----------+-----------+-----------+
 *
 * response and heartbeat acknowledgement (22-byte fixed header)
 * 0     1     2     3     4     5     6     7     8     9     10    11    12    13    14    15
 * +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+
 * |proto|ver1 |type | cmdcode   |ver2 |      requestId        |codec| sw  |respStatus | classLen  |
 * +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+
 * 16    17    18    19    20    21    22
 * +-----+-----+-----+-----+-----+-----+-----------+-----------+-----------+-----------+
 * | headerLen | contentLen            | className | header    | content   |[CRC32]    |
 * +-----+-----+-----+-----+-----+-----+-----------+-----------+-----------+-----------+
 * </pre>
 * {@code sw} is the switch byte. The CRC32 (4 bytes, over every byte of the frame before it) is present only when
 * {@code ver1 == 2} and bit 0 of {@code switch} ({@link #SWITCH_CRC}) is set.
 *
 * <h2>Types and command codes</h2>
 * <table>
 *   <caption>the (type, cmdcode) pairs a frame may carry; any other pair is malformed</caption>
 *   <tr><th>type</th><th>cmdcode</th><th>frame</th></tr>
 *   <tr><td>1 request</td><td>1 rpc request</td><td>two-way request</td></tr>
 *   <tr><td>2 oneway</td><td>1 rpc request</td><td>oneway request, no response</td></tr>
 *   <tr><td>1 request</td><td>0 heartbeat</td><td>heartbeat</td></tr>
 *   <tr><td>0 response</td><td>2 rpc response</td><td>response</td></tr>
 *   <tr><td>0 response</td><td>0 heartbeat</td><td>heartbeat acknowledgement</td></tr>
 * </table>
 *
 * <h2>Header map</h2>
 * {@code [int32 keyLen][key][int32 valueLen][value]} repeated until {@code headerLen} bytes are
 * used, with no count; strings are UTF-8 and a length of -1 means {@code null}.
 *
 * <h2>Limits and defaults</h2>
 * <table>
 *   <caption>checked by {@link BoltCodec} on the fixed header, before the body is awaited</caption>
 *   <tr><th>limit</th><th>default</th><th>where</th></tr>
 *   <tr><td>whole frame, fixed header and CRC included</td><td>16 MiB</td>
 *       <td>{@link BoltCodecOptions#maxFrameSize()}</td></tr>
 *   <tr><td>class name</td><td>1024 bytes</td><td>{@link BoltCodecOptions#maxClassLength()}</td></tr>
 *   <tr><td>header map</td><td>32767 bytes (the int16 maximum)</td>
 *       <td>{@link BoltCodecOptions#maxHeaderLength()}</td></tr>
 *   <tr><td>command version {@code ver2} of gateway-made frames</td><td>1</td>
 *       <td>{@link #COMMAND_VERSION}</td></tr>
 *   <tr><td>timeout of gateway-made heartbeats</td><td>-1 (none)</td>
 *       <td>{@link #NO_TIMEOUT}</td></tr>
 * </table>
 */
public final class BoltProtocol {

    /** The protocol's registered name, as written in the configuration. */
    public static final String NAME = "bolt";

    /** First byte of a Bolt v1 frame. */
    public static final byte PROTOCOL_V1 = 0x01;
    /** First byte of a Bolt v2 frame. */
    public static final byte PROTOCOL_V2 = 0x02;

    /** Bolt v2 {@code ver1}: the v2 header without CRC. */
    public static final byte V2_VERSION_1 = 1;
    /** Bolt v2 {@code ver1}: the v2 header, with a CRC32 when {@link #SWITCH_CRC} is set. */
    public static final byte V2_VERSION_2 = 2;

    /** Type of a response or heartbeat acknowledgement. */
    public static final byte TYPE_RESPONSE = 0;
    /** Type of a two-way request or heartbeat. */
    public static final byte TYPE_REQUEST = 1;
    /** Type of a oneway request. */
    public static final byte TYPE_ONEWAY = 2;

    /** Command code of heartbeats and their acknowledgements. */
    public static final short CMD_HEARTBEAT = 0;
    /** Command code of RPC requests. */
    public static final short CMD_REQUEST = 1;
    /** Command code of RPC responses. */
    public static final short CMD_RESPONSE = 2;

    /** The {@code ver2} command version every known Bolt peer writes. */
    public static final byte COMMAND_VERSION = 1;

    /** Codec (serialization) id of Hessian2, Bolt's default. */
    public static final byte CODEC_HESSIAN2 = 1;
    /** Codec id of Java serialization as SOFARPC numbers it. */
    public static final byte CODEC_JAVA = 2;
    /** Codec id of protobuf as SOFARPC numbers it. */
    public static final byte CODEC_PROTOBUF = 11;
    /** Codec id of JSON as SOFARPC numbers it. */
    public static final byte CODEC_JSON = 12;

    /** Bit of the v2 {@code switch} byte that turns the trailing CRC32 on (with {@code ver1 == 2}). */
    public static final int SWITCH_CRC = 0x01;

    /** Timeout written when a request has none. */
    public static final int NO_TIMEOUT = -1;

    /** Length of a v1 request's fixed header. */
    public static final int V1_REQUEST_HEADER_LENGTH = 22;
    /** Length of a v1 response's fixed header. */
    public static final int V1_RESPONSE_HEADER_LENGTH = 20;
    /** Length of a v2 request's fixed header. */
    public static final int V2_REQUEST_HEADER_LENGTH = 24;
    /** Length of a v2 response's fixed header. */
    public static final int V2_RESPONSE_HEADER_LENGTH = 22;
    /** Length of the CRC32 that may end a v2 frame. */
    public static final int CRC_LENGTH = 4;

    /** Header key of the routing key {@code interface:version[:uniqueId]}. */
    public static final String HEADER_SERVICE = "service";
    /** Header key of the called method's name. */
    public static final String HEADER_METHOD_NAME = "sofa_head_method_name";
    /** Header key of the target service as SOFARPC writes it. */
    public static final String HEADER_TARGET_SERVICE = "sofa_head_target_service";
    /** Response header key that SOFARPC sets to {@code true} when the body carries an exception. */
    public static final String HEADER_RESPONSE_ERROR = "sofa_head_response_error";

    private BoltProtocol() {
    }
}
