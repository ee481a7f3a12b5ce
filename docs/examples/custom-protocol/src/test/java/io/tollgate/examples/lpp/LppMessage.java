package io.tollgate.examples.lpp;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.tollgate.protocols.rpc.RpcFrame;
import java.io.DataInputStream;
import java.io.IOException;

/**
 * One LPP frame as a plain-socket peer sees it, read field by field from a stream without the
 * codec, so that the tests check the bytes the gateway sends against the ruler itself.
 *
 * @param kind the kind code, e.g. {@link LppProtocol#KIND_RESPONSE}
 */
record LppMessage(int kind, int status, long requestId, String service, String method, String body) {

    /** A request's bytes. */
    static byte[] request(long requestId, String service, String method, String body) {
        return encode(RpcFrame.Kind.REQUEST, LppStatus.OK, requestId, service, method, body);
    }

    /** The bytes of a frame written by {@link LppFrameWriter}. */
    static byte[] encode(RpcFrame.Kind kind, LppStatus status, long requestId, String service, String method,
            String body) {
        ByteBuf bodyBytes = Unpooled.copiedBuffer(body, UTF_8);
        ByteBuf frame = LppFrameWriter.write(UnpooledByteBufAllocator.DEFAULT, kind, status, requestId, service, method,
                bodyBytes);
        try {
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
            bodyBytes.release();
        }
    }

    /**
     * The next frame of {@code in}, or null when the stream ended before one began.
     *
     * @throws IOException when the stream ends inside a frame or the magic or version is wrong
     */
    static LppMessage read(DataInputStream in) throws IOException {
        int first = in.read();
        if (first < 0) {
            return null;
        }
        int magic = first << 8 | in.readUnsignedByte();
        int version = in.readUnsignedByte();
        if (magic != 0xcafe || version != LppProtocol.VERSION) {
            throw new IOException("magic 0x" + Integer.toHexString(magic) + ", version " + version);
        }
        int kind = in.readUnsignedByte();
        int status = in.readUnsignedByte();
        long requestId = in.readLong();
        String service = text(in, in.readUnsignedShort());
        String method = text(in, in.readUnsignedShort());
        String body = text(in, in.readInt());
        return new LppMessage(kind, status, requestId, service, method, body);
    }

    private static String text(DataInputStream in, int length) throws IOException {
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, UTF_8);
    }
}
