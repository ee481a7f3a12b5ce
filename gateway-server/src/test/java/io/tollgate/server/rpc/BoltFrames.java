package io.tollgate.server.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/** Builds and reads raw Bolt frames for tests that play a client or an upstream by hand. */
public final class BoltFrames {

    private BoltFrames() {
    }

    /** A two-way (or oneway) hessian2 request with {@code headers}, a class name and a small body. */
    public static ByteBuf request(int id, boolean oneway, int timeoutMillis, Map<String, String> headers, String body) {
        byte[] className = "com.alipay.sofa.rpc.core.request.SofaRequest".getBytes(StandardCharsets.US_ASCII);
        ByteBuf header = ByteBufAllocator.DEFAULT.buffer();
        ByteBuf frame = ByteBufAllocator.DEFAULT.buffer();
        try {
            headers.forEach((k, v) -> {
                byte[] key = k.getBytes(StandardCharsets.UTF_8);
                byte[] value = v.getBytes(StandardCharsets.UTF_8);
                header.writeInt(key.length).writeBytes(key).writeInt(value.length).writeBytes(value);
            });
            byte[] content = body.getBytes(StandardCharsets.UTF_8);
            frame.writeByte(1).writeByte(oneway ? 2 : 1).writeShort(1).writeByte(1).writeInt(id).writeByte(1)
                    .writeInt(timeoutMillis).writeShort(className.length).writeShort(header.readableBytes())
                    .writeInt(content.length).writeBytes(className).writeBytes(header).writeBytes(content);
            return frame.retain();
        } finally {
            header.release();
            frame.release();
        }
    }

    /** A request routed by {@code service}. */
    public static ByteBuf request(int id, String service, String body) {
        return request(id, false, 5000, Map.of("service", service, "sofa_head_method_name", "echo"), body);
    }

    /**
     * The v2 ({@code ver1} = 2) form of {@link #request(int, String, String)} with the CRC switch on,
     * ending with the CRC32 of everything before it.
     */
    static ByteBuf v2RequestWithCrc(int id, String service, String body) {
        ByteBuf v1 = request(id, service, body);
        try {
            ByteBuf v2 = ByteBufAllocator.DEFAULT.buffer().writeByte(2).writeByte(2).writeBytes(v1, 1, 9).writeByte(1)
                    .writeBytes(v1, 10, v1.readableBytes() - 10);
            CRC32 crc = new CRC32();
            crc.update(v2.nioBuffer());
            return v2.writeInt((int) crc.getValue());
        } finally {
            v1.release();
        }
    }

    /** A v1 heartbeat request. */
    public static ByteBuf heartbeat(int id) {
        return ByteBufAllocator.DEFAULT.buffer().writeByte(1).writeByte(1).writeShort(0).writeByte(1).writeInt(id)
                .writeByte(1).writeInt(-1).writeShort(0).writeShort(0).writeInt(0);
    }

    /** Reads one whole v1 request frame from {@code in} and returns its content. */
    static byte[] readRequestContent(DataInputStream in) throws IOException {
        byte[] frame = readFrame(in);
        ByteBuffer header = ByteBuffer.wrap(frame);
        int content = 22 + (header.getShort(14) & 0xffff) + (header.getShort(16) & 0xffff);
        return Arrays.copyOfRange(frame, content, content + header.getInt(18));
    }

    /** The whole length of the v1 or v2 frame whose fixed header starts at {@code offset}. */
    static int length(byte[] bytes, int offset) {
        ByteBuffer header = ByteBuffer.wrap(bytes, offset, bytes.length - offset).slice();
        int fixed = fixedLength(header.get(0), header.get(header.get(0) == 2 ? 2 : 1));
        int classLength = header.getShort(fixed - 8) & 0xffff;
        int headerLength = header.getShort(fixed - 6) & 0xffff;
        boolean crc = header.get(0) == 2 && header.get(1) == 2 && (header.get(11) & 1) != 0;
        return fixed + classLength + headerLength + header.getInt(fixed - 4) + (crc ? 4 : 0);
    }

    /** The frames of a capture of back-to-back frames. */
    static List<byte[]> split(byte[] frames) {
        List<byte[]> split = new ArrayList<>();
        for (int offset = 0; offset < frames.length; ) {
            int length = length(frames, offset);
            split.add(Arrays.copyOfRange(frames, offset, offset + length));
            offset += length;
        }
        return split;
    }

    /** Reads one whole v1 or v2 frame from {@code in}. */
    static byte[] readFrame(DataInputStream in) throws IOException {
        byte[] start = new byte[3];
        in.readFully(start);
        byte[] fixed = Arrays.copyOf(start, fixedLength(start[0], start[start[0] == 2 ? 2 : 1]));
        in.readFully(fixed, start.length, fixed.length - start.length);
        byte[] frame = Arrays.copyOf(fixed, length(fixed, 0));
        in.readFully(frame, fixed.length, frame.length - fixed.length);
        return frame;
    }

    private static int fixedLength(byte protocol, byte type) {
        return (type == 0 ? 20 : 22) + (protocol == 2 ? 2 : 0);
    }
}
