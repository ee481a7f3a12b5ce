package io.tollgate.protocols.dubbo;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tollgate.core.protocol.Detection;
import io.tollgate.core.protocol.ProtocolDetector;

/**
 * Recognises Dubbo from a connection's first two bytes, the magic 0xda 0xbb.
 *
 * <p>MOSN waits for the whole 16-byte header before it decides; this detector decides on the magic
 * alone, because nothing else a gateway port sees starts with 0xda (HTTP methods start with an ASCII
 * letter, the HTTP/2 preface with 'P', TLS with 0x16, Bolt with 0x01 or 0x02), and deciding early
 * means a slow client's first bytes never hold the connection in detection. The header is checked
 * anyway, byte for byte, by {@link DubboCodec#decode}, which rejects a bad frame as malformed.
 */
public final class DubboDetector implements ProtocolDetector {

    private static final ByteBuf MAGIC = Unpooled.unreleasableBuffer(
            Unpooled.wrappedBuffer(new byte[] {DubboProtocol.MAGIC_HIGH, DubboProtocol.MAGIC_LOW}).asReadOnly());

    @Override
    public String protocol() {
        return DubboProtocol.NAME;
    }

    @Override
    public Detection detect(ByteBuf in) {
        return Detection.ofPrefix(in, MAGIC);
    }
}
