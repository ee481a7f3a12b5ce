package io.tollgate.protocols.rpc;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * What every RPC codec's fuzz test checks on one fuzzed byte stream, as a listener and the RPC engine
 * use the codec: the bytes arrive in leak-tracked pooled buffers through an {@link RpcFrameDecoder};
 * every frame is read as the engine reads it (kind, id, routing view, timeout, status) and answered
 * as the engine answers it (heartbeat acknowledgements, every error reply), its id rewritten as
 * forwarding does, and released.
 *
 * <p>A failure is anything but: frames, then at most one exception of the codec's own type, after
 * which the connection's further bytes are discarded. Also checked: the same bytes in one read and
 * in two give the same frames and the same outcome; the frames are the stream's bytes, in order,
 * uncopied; the routing view raises nothing but the codec's exception, and nothing at all once
 * {@link RpcFrame#service()} and {@link RpcFrame#method()} succeeded; a frame whose id was rewritten
 * decodes again to the same frame with the new id; every buffer made here ends with no reference.
 *
 * @param <F> the codec's frame type
 */
public final class RpcFuzzing<F extends RpcFrame> {

    /** Headers or attachments every fuzz run asks each request for, beside the service and method. */
    private static final List<String> HEADER_NAMES =
            List.of("service", "interface", "version", "group", "timeout", "path", "dubbo", "x-missing");
    /** A request id every codec can write, unlike any in the captures. */
    private static final long REWRITTEN_ID = 0x1234_5678L;

    private final RpcCodec codec;
    private final Class<? extends RpcCodecException> expectedError;
    private final Consumer<F> protocolView;

    /**
     * @param expectedError the one exception type {@code codec} raises for malformed bytes
     * @param protocolView reads what the protocol's own frame type offers beyond {@link RpcFrame}
     *     (raising nothing but {@code expectedError})
     */
    public RpcFuzzing(RpcCodec codec, Class<? extends RpcCodecException> expectedError, Consumer<F> protocolView) {
        this.codec = requireNonNull(codec, "codec");
        this.expectedError = requireNonNull(expectedError, "expectedError");
        this.protocolView = requireNonNull(protocolView, "protocolView");
    }

    /** Runs every check on {@code input}; throws {@link AssertionError} or the unexpected exception. */
    public void check(byte[] input) {
        Outcome whole = decode(input, input.length, true);
        Outcome split = decode(input, input.length / 2, false);
        assertThat(split.frames).as("frames read in two parts").containsExactlyElementsOf(whole.frames);
        assertThat(split.errorType).as("error read in two parts").isEqualTo(whole.errorType);
        int offset = 0;
        for (byte[] frame : whole.frames) {
            assertThat(Arrays.copyOfRange(input, offset, offset + frame.length)).as("frame bytes").isEqualTo(frame);
            offset += frame.length;
        }
    }

    /** What decoding gave: each frame's bytes, and the type of the codec's error if one was raised. */
    private record Outcome(List<byte[]> frames, Class<?> errorType) {
    }

    /**
     * Decodes {@code input} delivered as two reads split at {@code split}; with {@code serve}, reads
     * and answers every frame as the engine would.
     */
    private Outcome decode(byte[] input, int split, boolean serve) {
        EmbeddedChannel channel = new EmbeddedChannel(new RpcFrameDecoder(codec));
        List<ByteBuf> made = new ArrayList<>();
        List<RpcFrame> released = new ArrayList<>();
        List<byte[]> frames = new ArrayList<>();
        Class<?> errorType = null;
        try {
            List<byte[]> parts = List.of(Arrays.copyOfRange(input, 0, split),
                    Arrays.copyOfRange(input, split, input.length));
            for (byte[] part : parts) {
                ByteBuf read = ByteBufAllocator.DEFAULT.buffer(Math.max(1, part.length)).writeBytes(part);
                made.add(read);
                boolean failedBefore = errorType != null;
                try {
                    channel.writeInbound(read);
                } catch (RuntimeException e) {
                    if (!expectedError.isInstance(e)) {
                        throw e;
                    }
                    assertThat(errorType).as("a second error after the first").isNull();
                    errorType = e.getClass();
                    if (serve) {
                        answerMalformed((RpcCodecException) e, made);
                    }
                }
                for (F frame; (frame = channel.readInbound()) != null; ) {
                    assertThat(failedBefore).as("a frame read after an error").isFalse();
                    released.add(frame);
                    frames.add(serve ? serveAndRelease(frame, made) : bytesAndRelease(frame));
                }
            }
            channel.finishAndReleaseAll();
        } finally {
            channel.finishAndReleaseAll();
        }
        for (ByteBuf buf : made) {
            assertThat(buf.refCnt()).as("references left on a buffer of the test").isZero();
        }
        for (RpcFrame frame : released) {
            assertThat(frame.refCnt()).as("references left on the buffer under a released frame").isZero();
        }
        return new Outcome(frames, errorType);
    }

    private byte[] bytesAndRelease(F frame) {
        try {
            return ByteBufUtil.getBytes(frame.bytes());
        } finally {
            frame.release();
        }
    }

    /** Reads and answers {@code frame} as the engine would, rewrites its id, releases it; returns its bytes. */
    private byte[] serveAndRelease(F frame, List<ByteBuf> made) {
        try {
            assertThat(frame.frameLength()).isEqualTo(frame.bytes().readableBytes());
            byte[] bytes = ByteBufUtil.getBytes(frame.bytes());
            read(frame);
            answer(frame, made);
            frame.requestId(REWRITTEN_ID);
            assertThat(frame.requestId()).isEqualTo(REWRITTEN_ID);
            decodesAgain(ByteBufUtil.getBytes(frame.bytes()), frame.kind(), REWRITTEN_ID, made);
            return bytes;
        } finally {
            frame.release();
        }
    }

    private void read(F frame) {
        assertThat(frame.toString()).isNotEmpty();
        assertThat(frame.protocolName()).isNotEmpty();
        frame.requestId();
        frame.replyForm();
        RpcFrame.Kind kind = frame.kind();
        if (kind.isRequest()) {
            frame.timeoutMillis();
            routingView(frame);
        } else {
            assertThat(frame.httpStatus()).isBetween(200, 599);
            frame.statusError();
            if (kind == RpcFrame.Kind.HEARTBEAT_ACK) {
                codec.healthy(frame);
            }
        }
        try {
            protocolView.accept(frame);
        } catch (RpcCodecException e) {
            if (!expectedError.isInstance(e)) {
                throw e;
            }
        }
    }

    /**
     * Reads the routing view as the engine does: the service and method first (a codec error there
     * is a malformed request the engine answers), then, once they were read, headers and the
     * timeout, which MUST NOT fail any more.
     */
    private void routingView(F frame) {
        try {
            frame.service();
            frame.method();
        } catch (RpcCodecException e) {
            if (!expectedError.isInstance(e)) {
                throw e;
            }
            return;
        }
        for (String name : HEADER_NAMES) {
            frame.header(name);
        }
        frame.timeoutMillis();
    }

    /** Answers a request or heartbeat as the engine would, checking that each answer decodes. */
    private void answer(F frame, List<ByteBuf> made) {
        if (frame.kind() == RpcFrame.Kind.HEARTBEAT) {
            ByteBuf ack = made(codec.heartbeatAck(ByteBufAllocator.DEFAULT, frame), made);
            decodesAgain(ack, RpcFrame.Kind.HEARTBEAT_ACK, frame.requestId(), made);
        }
        if (frame.kind() == RpcFrame.Kind.REQUEST) {
            for (RpcError error : RpcError.values()) {
                ByteBuf reply = made(codec.errorReply(ByteBufAllocator.DEFAULT, frame.replyForm(), frame.requestId(),
                        error), made);
                decodesAgain(reply, RpcFrame.Kind.RESPONSE, frame.requestId(), made);
            }
        }
    }

    /** Answers a malformed frame as the engine does when its sender waits and its id is known. */
    private void answerMalformed(RpcCodecException e, List<ByteBuf> made) {
        if (!e.expectsResponse() || e.rpcRequestId().isEmpty()) {
            return;
        }
        long id = e.rpcRequestId().getAsLong();
        ByteBuf reply = made(codec.errorReply(ByteBufAllocator.DEFAULT, e.replyForm(), id, RpcError.MALFORMED), made);
        decodesAgain(reply, RpcFrame.Kind.RESPONSE, id, made);
    }

    private static ByteBuf made(ByteBuf buf, List<ByteBuf> made) {
        made.add(buf);
        return buf;
    }

    /** Checks that {@code frame}, which is released, decodes alone to one frame of {@code kind} with {@code id}. */
    private void decodesAgain(ByteBuf frame, RpcFrame.Kind kind, long id, List<ByteBuf> made) {
        try {
            decodesAgain(ByteBufUtil.getBytes(frame), kind, id, made);
        } finally {
            frame.release();
        }
    }

    /** Checks that {@code bytes}, one frame, decode alone to one frame of {@code kind} with {@code id}. */
    private void decodesAgain(byte[] bytes, RpcFrame.Kind kind, long id, List<ByteBuf> made) {
        ByteBuf in = made(ByteBufAllocator.DEFAULT.buffer(bytes.length).writeBytes(bytes), made);
        try {
            RpcFrame again = codec.decode(in);
            assertThat(again).as("a frame the gateway wrote or rewrote decodes").isNotNull();
            try {
                assertThat(again.kind()).isEqualTo(kind);
                assertThat(again.frameLength()).isEqualTo(bytes.length);
                assertThat(again.requestId()).isEqualTo(id);
            } finally {
                again.release();
            }
        } finally {
            in.release();
        }
    }
}
