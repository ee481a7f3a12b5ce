package io.tollgate.protocols.bolt;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/** The captured SOFARPC frames under {@code vectors/bolt} and small helpers to decode them in tests. */
final class BoltVectors {

    static final String ECHO_REQUEST = "sofarpc-echo.request.bin";
    static final String ECHO_RESPONSE = "sofarpc-echo.response.bin";
    static final String PIPELINED_REQUESTS = "sofarpc-pipelined-30.requests.bin";
    static final String PIPELINED_RESPONSES = "sofarpc-pipelined.responses.bin";

    /** A frame reduced to what must not depend on how the bytes arrived. */
    record Decoded(BoltFrame.Kind kind, int requestId, byte[] bytes) {
    }

    private BoltVectors() {
    }

    /** Every capture file, for tests that run on each. */
    static Stream<String> all() {
        return Stream.of(
                "sofarpc-app-exception.request.bin", "sofarpc-app-exception.response.bin",
                "sofarpc-echo-1kb.request.bin", "sofarpc-echo-1kb.response.bin",
                ECHO_REQUEST, ECHO_RESPONSE,
                "sofarpc-no-such-service.request.bin", "sofarpc-no-such-service.response.bin",
                "sofarpc-oneway.request.bin", PIPELINED_REQUESTS, PIPELINED_RESPONSES);
    }

    static byte[] read(String name) {
        try (InputStream in = BoltVectors.class.getResourceAsStream("/vectors/bolt/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("vector: " + name + " (expected: a file in vectors/bolt)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A leak-tracked pooled buffer holding {@code bytes}, as a socket read would deliver them. */
    static ByteBuf pooled(byte[] bytes) {
        return ByteBufAllocator.DEFAULT.buffer(bytes.length).writeBytes(bytes);
    }

    /** The readable bytes of {@code buf}, which is released. */
    static byte[] drain(ByteBuf buf) {
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    /** Writes each chunk into a fresh channel with a default decoder and reduces every frame read. */
    static List<Decoded> decodeChunks(List<byte[]> chunks) {
        EmbeddedChannel channel = new EmbeddedChannel(new BoltDecoder());
        try {
            for (byte[] chunk : chunks) {
                channel.writeInbound(pooled(chunk));
            }
            return reduce(channel);
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    /** Reads, reduces and releases every frame waiting in {@code channel}'s inbound queue. */
    static List<Decoded> reduce(EmbeddedChannel channel) {
        List<Decoded> decoded = new ArrayList<>();
        for (BoltFrame frame; (frame = channel.readInbound()) != null; ) {
            try {
                decoded.add(new Decoded(frame.kind(), (int) frame.requestId(), ByteBufUtil.getBytes(frame.bytes())));
            } finally {
                frame.release();
            }
        }
        return decoded;
    }

    /** Decodes the one frame in {@code buf} (released), checks it, and releases it whatever happens. */
    static void withFrame(ByteBuf buf, Consumer<BoltFrame> check) {
        BoltFrame frame = decodeOne(buf);
        try {
            check.accept(frame);
        } finally {
            frame.release();
        }
    }

    /** Decodes one whole frame from {@code buf} (released) with a fresh decoder; the caller releases it. */
    static BoltFrame decodeOne(ByteBuf buf) {
        EmbeddedChannel channel = new EmbeddedChannel(new BoltDecoder());
        try {
            channel.writeInbound(buf);
            BoltFrame frame = channel.readInbound();
            if (frame == null) {
                throw new AssertionError("no frame decoded");
            }
            if (!channel.inboundMessages().isEmpty()) {
                frame.release();
                throw new AssertionError("more than one frame decoded");
            }
            return frame;
        } finally {
            channel.finishAndReleaseAll();
        }
    }
}
