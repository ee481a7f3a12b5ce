package io.tollgate.benchmarks.rpc;

import static java.util.Objects.requireNonNull;

import io.netty.channel.ChannelHandler;
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
}
