package io.tollgate.protocols.bolt;

import io.netty.buffer.ByteBuf;
import io.tollgate.core.protocol.Detection;
import io.tollgate.core.protocol.ProtocolDetector;

/**
 * Recognises Bolt (v1 or v2) from a connection's first bytes: a protocol code 0x01 or 0x02, then, for
 * v2, {@code ver1} 1 or 2, then a known (type, cmdcode) pair. Nothing else a gateway port sees starts
 * that way: HTTP methods start with an ASCII letter, the HTTP/2 preface with 'P', TLS with 0x16, Dubbo
 * with 0xda.
 */
public final class BoltDetector implements ProtocolDetector {

    @Override
    public String protocol() {
        return BoltProtocol.NAME;
    }

    @Override
    public Detection detect(ByteBuf in) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        if (readable == 0) {
            return Detection.NEED_MORE;
        }
        byte protocolCode = in.getByte(start);
        if (protocolCode != BoltProtocol.PROTOCOL_V1 && protocolCode != BoltProtocol.PROTOCOL_V2) {
            return Detection.NO_MATCH;
        }
        int typeOffset = BoltLayout.of(protocolCode, true).typeOffset;
        if (protocolCode == BoltProtocol.PROTOCOL_V2 && readable > BoltLayout.VERSION_OFFSET) {
            byte version = in.getByte(start + BoltLayout.VERSION_OFFSET);
            if (version != BoltProtocol.V2_VERSION_1 && version != BoltProtocol.V2_VERSION_2) {
                return Detection.NO_MATCH;
            }
        }
        if (readable < typeOffset + 3) {
            return Detection.NEED_MORE;
        }
        byte type = in.getByte(start + typeOffset);
        short cmdCode = in.getShort(start + typeOffset + 1);
        return BoltKinds.of(type, cmdCode) == null ? Detection.NO_MATCH : Detection.MATCH;
    }
}
