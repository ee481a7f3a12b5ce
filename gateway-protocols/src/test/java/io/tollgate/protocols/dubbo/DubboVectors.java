package io.tollgate.protocols.dubbo;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.protocols.rpc.RpcFrameDecoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/** The captured Dubbo 3.3.6 frames under {@code vectors/dubbo} and small helpers to decode them in tests. */
final class DubboVectors {

    static final String ECHO_REQUEST = "dubbo-echo.request.bin";
    static final String ECHO_RESPONSE = "dubbo-echo.response.bin";
    static final String ECHO_1KB_REQUEST = "dubbo-echo-1kb.request.bin";
    static final String ECHO_1KB_RESPONSE = "dubbo-echo-1kb.response.bin";
    static final String APP_EXCEPTION_REQUEST = "dubbo-app-exception.request.bin";
    static final String APP_EXCEPTION_RESPONSE = "dubbo-app-exception.response.bin";
    static final String NO_SUCH_SERVICE_REQUEST = "dubbo-no-such-service.request.bin";
    static final String NO_SUCH_SERVICE_RESPONSE = "dubbo-no-such-service.response.bin";
    static final String PIPELINED_REQUESTS = "dubbo-pipelined-30.requests.bin";
    static final String PIPELINED_RESPONSES = "dubbo-pipelined.responses.bin";

    /** The id of the echo call in the echo captures. */
    static final long ECHO_ID = 0x1acc461706e22bc3L;

    /** A frame reduced to what must not depend on how the bytes arrived. */
    record Decoded(RpcFrame.Kind kind, long requestId, byte[] bytes) {
    }

    private DubboVectors() {
    }

    /** Every capture file, for tests that run on each. */
    static Stream<String> all() {
        return Stream.of(ECHO_REQUEST, ECHO_RESPONSE, ECHO_1KB_REQUEST, ECHO_1KB_RESPONSE, APP_EXCEPTION_REQUEST,
                APP_EXCEPTION_RESPONSE, NO_SUCH_SERVICE_REQUEST, NO_SUCH_SERVICE_RESPONSE, PIPELINED_REQUESTS,
                PIPELINED_RESPONSES);
    }

    /** The capture files of requests, each of whose frames has a routing view. */
    static Stream<String> requests() {
        return Stream.of(ECHO_REQUEST, ECHO_1KB_REQUEST, APP_EXCEPTION_REQUEST, NO_SUCH_SERVICE_REQUEST,
                PIPELINED_REQUESTS);
    }

    static byte[] read(String name) {
        try (InputStream in = DubboVectors.class.getResourceAsStream("/vectors/dubbo/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("vector: " + name + " (expected: a file in vectors/dubbo)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A hessian2 reader over {@code frame}'s body. */
    static Hessian2Reader bodyReader(DubboFrame frame) {
        ByteBuf body = frame.body();
        return new Hessian2Reader(body, body.readerIndex(), body.readableBytes(), DubboProtocol.MAX_HESSIAN2_DEPTH);
    }

    /** Checks that {@code frame} has no routing view: no invocation, service, method, attachment or timeout. */
    static void assertNoRoutingView(DubboFrame frame) {
        assertThat(frame.invocation()).isNull();
        assertThat(frame.service()).isNull();
        assertThat(frame.method()).isNull();
        for (String name : new String[] {"interface", "path", "version", "group", "dubbo", "timeout"}) {
            assertThat(frame.header(name)).as(name).isNull();
        }
        assertThat(frame.attachments()).isEmpty();
        assertThat(frame.timeoutMillis()).isZero();
    }

    /** A whole frame: a header with {@code flag}, {@code status} and {@code requestId}, then {@code body}. */
    static byte[] frame(int flag, int status, long requestId, byte[] body) {
        ByteBuf buf = ByteBufAllocator.DEFAULT.buffer();
        buf.writeShort(DubboProtocol.MAGIC).writeByte(flag).writeByte(status).writeLong(requestId)
                .writeInt(body.length).writeBytes(body);
        return drain(buf);
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

    /** A channel that decodes with the default codec. */
    static EmbeddedChannel channel() {
        return channel(DubboCodec.DEFAULTS);
    }

    static EmbeddedChannel channel(DubboCodec codec) {
        return new EmbeddedChannel(new RpcFrameDecoder(codec));
    }

    /** Writes each chunk into a fresh channel with the default codec and reduces every frame read. */
    static List<Decoded> decodeChunks(List<byte[]> chunks) {
        EmbeddedChannel channel = channel();
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
        for (DubboFrame frame; (frame = channel.readInbound()) != null; ) {
            try {
                decoded.add(new Decoded(frame.kind(), frame.requestId(), ByteBufUtil.getBytes(frame.bytes())));
            } finally {
                frame.release();
            }
        }
        return decoded;
    }

    /** Decodes every frame of {@code bytes}, checks each in turn, and releases each whatever happens. */
    static void forEachFrame(byte[] bytes, Consumer<DubboFrame> check) {
        EmbeddedChannel channel = channel();
        try {
            channel.writeInbound(pooled(bytes));
            for (DubboFrame frame; (frame = channel.readInbound()) != null; ) {
                try {
                    check.accept(frame);
                } finally {
                    frame.release();
                }
            }
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    /** Decodes the one frame in {@code buf} (released), checks it, and releases it whatever happens. */
    static void withFrame(ByteBuf buf, Consumer<DubboFrame> check) {
        DubboFrame frame = decodeOne(buf);
        try {
            check.accept(frame);
        } finally {
            frame.release();
        }
    }

    /** Decodes one whole frame from {@code buf} (released) with a fresh decoder; the caller releases it. */
    static DubboFrame decodeOne(ByteBuf buf) {
        EmbeddedChannel channel = channel();
        try {
            channel.writeInbound(buf);
            DubboFrame frame = channel.readInbound();
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
