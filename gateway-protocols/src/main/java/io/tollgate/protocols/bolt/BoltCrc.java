package io.tollgate.protocols.bolt;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/** The CRC32 that ends a v2 frame with the CRC switch on, computed over NIO views without copying. */
final class BoltCrc {

    private BoltCrc() {
    }

    /** The CRC32 of {@code length} bytes of {@code buf} from absolute {@code index}; indices untouched. */
    static int compute(ByteBuf buf, int index, int length) {
        CRC32 crc = new CRC32();
        for (ByteBuffer part : buf.nioBuffers(index, length)) {
            crc.update(part);
        }
        return (int) crc.getValue();
    }
}
