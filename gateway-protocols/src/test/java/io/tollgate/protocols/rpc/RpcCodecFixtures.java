package io.tollgate.protocols.rpc;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tollgate.core.protocol.Detection;
import io.tollgate.core.protocol.ProtocolDetector;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What every RPC protocol's tests do with its captures: read them from {@code vectors/<protocol>},
 * put them in leak-tracked pooled buffers as a socket read would, run them through a fresh decoder
 * in an {@link EmbeddedChannel}, and reduce or check the frames that come out, releasing each
 * whatever happens. One instance per protocol, made with the protocol's name and decoder; the
 * helpers that need neither are static.
 *
 * @param <F> the protocol's frame type, as its decoder emits it
 */
public final class RpcCodecFixtures<F extends RpcFrame> {

    /** A frame reduced to what must not depend on how the bytes arrived. */
    public record Decoded(RpcFrame.Kind kind, long requestId, byte[] bytes) {
    }

    private final String protocol;
    private final Supplier<? extends ChannelHandler> decoders;

    /**
     * Fixtures for the captures under {@code vectors/<protocol>}, decoded by a new handler from
     * {@code decoders} on each channel.
     */
    public RpcCodecFixtures(String protocol, Supplier<? extends ChannelHandler> decoders) {
        this.protocol = requireNonNull(protocol, "protocol");
        this.decoders = requireNonNull(decoders, "decoders");
    }

    /** The bytes of the capture {@code name} under {@code vectors/<protocol>}. */
    public byte[] read(String name) {
        String directory = "vectors/" + protocol;
        try (InputStream in = RpcCodecFixtures.class.getResourceAsStream("/" + directory + "/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("vector: " + name + " (expected: a file in " + directory + ")");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A channel that decodes with a new default decoder. */
    public EmbeddedChannel channel() {
        return new EmbeddedChannel(decoders.get());
    }

    /** Writes each chunk into a fresh channel with a default decoder and reduces every frame read. */
    public List<Decoded> decodeChunks(List<byte[]> chunks) {
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

    /** Decodes every frame of {@code bytes}, checks each in turn, and releases each whatever happens. */
    public void forEachFrame(byte[] bytes, Consumer<F> check) {
        EmbeddedChannel channel = channel();
        try {
            channel.writeInbound(pooled(bytes));
            for (F frame; (frame = channel.readInbound()) != null; ) {
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
    public void withFrame(ByteBuf buf, Consumer<F> check) {
        F frame = decodeOne(buf);
        try {
            check.accept(frame);
        } finally {
            frame.release();
        }
    }

    /** Decodes one whole frame from {@code buf} (released) with a fresh decoder; the caller releases it. */
    public F decodeOne(ByteBuf buf) {
        EmbeddedChannel channel = channel();
        try {
            channel.writeInbound(buf);
            F frame = channel.readInbound();
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

    /** Reads, reduces and releases every frame waiting in {@code channel}'s inbound queue. */
    public static List<Decoded> reduce(EmbeddedChannel channel) {
        List<Decoded> decoded = new ArrayList<>();
        for (RpcFrame frame; (frame = channel.readInbound()) != null; ) {
            try {
                decoded.add(new Decoded(frame.kind(), frame.requestId(), ByteBufUtil.getBytes(frame.bytes())));
            } finally {
                frame.release();
            }
        }
        return decoded;
    }

    /** A leak-tracked pooled buffer holding {@code bytes}, as a socket read would deliver them. */
    public static ByteBuf pooled(byte[] bytes) {
        return ByteBufAllocator.DEFAULT.buffer(bytes.length).writeBytes(bytes);
    }

    /** The readable bytes of {@code buf}, which is released. */
    public static byte[] drain(ByteBuf buf) {
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    /** What {@code detector} says of {@code bytes}, offered in a buffer that is released afterwards. */
    public static Detection detect(ProtocolDetector detector, byte[] bytes) {
        ByteBuf in = Unpooled.wrappedBuffer(bytes);
        try {
            return detector.detect(in);
        } finally {
            in.release();
        }
    }

    /**
     * Checks that {@code detector} matches {@code capture} where it lies in a buffer (after two other
     * bytes already read), without consuming, retaining or releasing anything.
     */
    public static void assertMatchesWithoutConsumingOrReleasing(ProtocolDetector detector, byte[] capture) {
        ByteBuf in = Unpooled.buffer().writeBytes(new byte[] {9, 9}).writeBytes(capture);
        in.skipBytes(2);
        try {
            assertThat(detector.detect(in)).isEqualTo(Detection.MATCH);
            assertThat(in.readerIndex()).isEqualTo(2);
            assertThat(in.refCnt()).isEqualTo(1);
        } finally {
            in.release();
        }
    }
}
