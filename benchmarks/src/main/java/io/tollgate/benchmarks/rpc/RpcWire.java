package io.tollgate.benchmarks.rpc;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.function.Supplier;

/**
 * How the benchmark's RPC load generator and upstream cut one protocol's byte stream into
 * messages: a new frame decoder per connection, emitting messages of one type.
 *
 * @param name the protocol's name, for thread names ({@code bolt}, {@code dubbo})
 * @param messageType the type of the messages the decoder emits
 * @param frameDecoders makes the decoder of each new connection
 * @param <M> the message type
 */
public record RpcWire<M>(String name, Class<M> messageType, Supplier<? extends ChannelHandler> frameDecoders) {

    public RpcWire {
        requireNonNull(name, "name");
        requireNonNull(messageType, "messageType");
        requireNonNull(frameDecoders, "frameDecoders");
    }

    /**
     * A frame a real client or server sent, from this module's resources (e.g.
     * {@code /dubbo/dubbo-echo-1kb.request.bin}), as a direct buffer nobody frees.
     */
    public static ByteBuf captured(String resource) {
        try (InputStream in = RpcWire.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            byte[] bytes = in.readAllBytes();
            return Unpooled.unreleasableBuffer(Unpooled.directBuffer(bytes.length).writeBytes(bytes));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
