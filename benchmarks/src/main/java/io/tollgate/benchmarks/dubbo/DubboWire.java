package io.tollgate.benchmarks.dubbo;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.tollgate.benchmarks.rpc.RpcWire;

/**
 * The little of the Dubbo wire format the load generator and its upstream need: where the header
 * fields sit, whole frames, and the captured frames both send. Big-endian: magic {@code 0xdabb}
 * (2 bytes), flag (1), status (1), request id (8), body length (4), then the body.
 */
final class DubboWire {

    static final int HEADER_LENGTH = 16;
    static final int FLAG_OFFSET = 2;
    static final int STATUS_OFFSET = 3;
    static final int ID_OFFSET = 4;
    static final short MAGIC = (short) 0xdabb;
    static final int FLAG_REQUEST = 0x80;
    static final int FLAG_TWO_WAY = 0x40;
    static final int FLAG_EVENT = 0x20;
    static final int STATUS_OK = 20;

    /** Whole frames, header included, as the load generator and its upstream read them; see {@link #frames()}. */
    static final RpcWire<ByteBuf> FRAMES = new RpcWire<>("dubbo", ByteBuf.class, DubboWire::frames);

    private DubboWire() {
    }

    /** Splits the stream into whole frames, header included; 8 MB is Dubbo's own default limit. */
    static LengthFieldBasedFrameDecoder frames() {
        return new LengthFieldBasedFrameDecoder(8 * 1024 * 1024, 12, 4, 0, 0);
    }
}
