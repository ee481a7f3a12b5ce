package io.tollgate.server.bolt;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Builds and reads raw Bolt v1 request frames for tests that play a client or an upstream by hand. */
final class BoltFrames {

    private BoltFrames() {
    }

    /** A two-way (or oneway) hessian2 request with {@code headers}, a class name and a small body. */
    static ByteBuf request(int id, boolean oneway, int timeoutMillis, Map<String, String> headers, String body) {
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
    static ByteBuf request(int id, String service, String body) {
        return request(id, false, 5000, Map.of("service", service, "sofa_head_method_name", "echo"), body);
    }

    /** A v1 heartbeat request. */
    static ByteBuf heartbeat(int id) {
        return ByteBufAllocator.DEFAULT.buffer().writeByte(1).writeByte(1).writeShort(0).writeByte(1).writeInt(id)
                .writeByte(1).writeInt(-1).writeShort(0).writeShort(0).writeInt(0);
    }

    /** Reads one whole v1 request frame from {@code in} and returns its content. */
    static byte[] readRequestContent(DataInputStream in) throws IOException {
        byte[] fixed = new byte[22];
        in.readFully(fixed);
        int classLength = ((fixed[14] & 0xff) << 8) | (fixed[15] & 0xff);
        int headerLength = ((fixed[16] & 0xff) << 8) | (fixed[17] & 0xff);
        int contentLength = ((fixed[18] & 0xff) << 24) | ((fixed[19] & 0xff) << 16) | ((fixed[20] & 0xff) << 8)
                | (fixed[21] & 0xff);
        in.skipNBytes((long) classLength + headerLength);
        byte[] content = new byte[contentLength];
        in.readFully(content);
        return content;
    }
}
