package io.tollgate.protocols.bolt;

import io.netty.buffer.ByteBuf;

/**
 * Where each fixed-header field sits in one of the four Bolt frame shapes (v1/v2 x request/response),
 * derived once so that readers and writers share the offsets drawn in {@link BoltProtocol}.
 */
enum BoltLayout {
    V1_REQUEST(BoltProtocol.PROTOCOL_V1, true),
    V1_RESPONSE(BoltProtocol.PROTOCOL_V1, false),
    V2_REQUEST(BoltProtocol.PROTOCOL_V2, true),
    V2_RESPONSE(BoltProtocol.PROTOCOL_V2, false);

    /** Offset of {@code ver1}, present in v2 frames only. */
    static final int VERSION_OFFSET = 1;

    final byte protocolCode;
    final boolean request;
    final int typeOffset;
    final int cmdCodeOffset;
    final int commandVersionOffset;
    final int requestIdOffset;
    final int codecOffset;
    /** Offset of the switch byte, or -1 in v1 frames, which have none. */
    final int switchOffset;
    /** Offset of the int32 timeout in requests, of the int16 status in responses. */
    final int timeoutOrStatusOffset;
    final int classLengthOffset;
    final int headerLengthOffset;
    final int contentLengthOffset;
    final int fixedLength;

    BoltLayout(byte protocolCode, boolean request) {
        this.protocolCode = protocolCode;
        this.request = request;
        int shift = protocolCode == BoltProtocol.PROTOCOL_V2 ? 1 : 0;
        typeOffset = 1 + shift;
        cmdCodeOffset = typeOffset + 1;
        commandVersionOffset = cmdCodeOffset + 2;
        requestIdOffset = commandVersionOffset + 1;
        codecOffset = requestIdOffset + 4;
        switchOffset = shift == 1 ? codecOffset + 1 : -1;
        timeoutOrStatusOffset = codecOffset + 1 + shift;
        classLengthOffset = timeoutOrStatusOffset + (request ? 4 : 2);
        headerLengthOffset = classLengthOffset + 2;
        contentLengthOffset = headerLengthOffset + 2;
        fixedLength = contentLengthOffset + 4;
    }

    boolean isV2() {
        return switchOffset >= 0;
    }

    /** The v2 {@code ver1} of the frame at absolute {@code base}; 1 for v1 frames, which have none. */
    byte protocolVersion(ByteBuf buf, int base) {
        return isV2() ? buf.getByte(base + VERSION_OFFSET) : BoltProtocol.V2_VERSION_1;
    }

    /** The v2 switch byte of the frame at absolute {@code base}; 0 for v1 frames, which have none. */
    byte switches(ByteBuf buf, int base) {
        return isV2() ? buf.getByte(base + switchOffset) : 0;
    }

    /** The dialect of the frame at absolute {@code base}, whose fixed header is readable. */
    BoltDialect dialect(ByteBuf buf, int base) {
        return new BoltDialect(protocolCode, protocolVersion(buf, base), buf.getByte(base + codecOffset),
                switches(buf, base));
    }

    /** The layout of a frame with this protocol code (0x01 or 0x02) and this type. */
    static BoltLayout of(int protocolCode, boolean request) {
        if (protocolCode == BoltProtocol.PROTOCOL_V1) {
            return request ? V1_REQUEST : V1_RESPONSE;
        }
        if (protocolCode == BoltProtocol.PROTOCOL_V2) {
            return request ? V2_REQUEST : V2_RESPONSE;
        }
        throw new IllegalArgumentException(
                "protocolCode: " + protocolCode + " (expected: " + BoltProtocol.PROTOCOL_V1 + " or "
                        + BoltProtocol.PROTOCOL_V2 + ")");
    }
}
