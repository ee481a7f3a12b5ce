package io.tollgate.protocols.bolt;

/**
 * How one peer frames its messages: protocol code, v2 {@code ver1}, serialization codec and v2
 * switches. A gateway-made reply MUST use the dialect of the request it answers, or the client
 * cannot read it.
 *
 * @param protocolCode {@link BoltProtocol#PROTOCOL_V1} or {@link BoltProtocol#PROTOCOL_V2}
 * @param protocolVersion the v2 {@code ver1} (1 or 2); ignored and 1 for v1
 * @param codec the serialization codec id, {@link BoltProtocol#CODEC_HESSIAN2} usually
 * @param switches the v2 switch byte; ignored and 0 for v1
 */
public record BoltDialect(byte protocolCode, byte protocolVersion, byte codec, byte switches) {

    /** Bolt v1 with Hessian2, what SOFARPC speaks by default. */
    public static final BoltDialect V1_HESSIAN2 =
            new BoltDialect(BoltProtocol.PROTOCOL_V1, BoltProtocol.V2_VERSION_1, BoltProtocol.CODEC_HESSIAN2, (byte) 0);

    /** Validates the protocol code and, for v2, {@code ver1}; normalises the fields v1 has not. */
    public BoltDialect {
        if (protocolCode == BoltProtocol.PROTOCOL_V1) {
            protocolVersion = BoltProtocol.V2_VERSION_1;
            switches = 0;
        } else if (protocolCode != BoltProtocol.PROTOCOL_V2) {
            throw new IllegalArgumentException("protocolCode: " + protocolCode + " (expected: "
                    + BoltProtocol.PROTOCOL_V1 + " or " + BoltProtocol.PROTOCOL_V2 + ")");
        } else if (protocolVersion != BoltProtocol.V2_VERSION_1 && protocolVersion != BoltProtocol.V2_VERSION_2) {
            throw new IllegalArgumentException("protocolVersion: " + protocolVersion + " (expected: "
                    + BoltProtocol.V2_VERSION_1 + " or " + BoltProtocol.V2_VERSION_2 + ")");
        }
    }

    /** Bolt v2 with {@code ver1 = 2}, the given codec, and the trailing CRC32 on or off. */
    public static BoltDialect v2(byte codec, boolean crc) {
        return new BoltDialect(BoltProtocol.PROTOCOL_V2, BoltProtocol.V2_VERSION_2, codec,
                crc ? (byte) BoltProtocol.SWITCH_CRC : (byte) 0);
    }

    /** Whether frames in this dialect end with a CRC32 of everything before it. */
    public boolean hasCrc() {
        return hasCrc(protocolCode, protocolVersion, switches);
    }

    /** Whether a frame with these protocol code, {@code ver1} and switches ends with a CRC32. */
    static boolean hasCrc(byte protocolCode, byte protocolVersion, byte switches) {
        return protocolCode == BoltProtocol.PROTOCOL_V2
                && protocolVersion == BoltProtocol.V2_VERSION_2
                && (switches & BoltProtocol.SWITCH_CRC) != 0;
    }

    /** The four bytes in one int, as {@link io.tollgate.protocols.rpc.RpcFrame#replyForm()} carries them. */
    public int packed() {
        return (protocolCode & 0xff) | (protocolVersion & 0xff) << 8 | (codec & 0xff) << 16 | (switches & 0xff) << 24;
    }

    /** The dialect {@link #packed()} made {@code packed} from. */
    public static BoltDialect unpack(int packed) {
        return new BoltDialect((byte) packed, (byte) (packed >>> 8), (byte) (packed >>> 16), (byte) (packed >>> 24));
    }
}
