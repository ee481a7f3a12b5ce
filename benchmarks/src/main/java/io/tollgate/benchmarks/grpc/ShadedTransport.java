package io.tollgate.benchmarks.grpc;

import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.IoHandlerFactory;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.ServerChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioIoHandler;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;

/**
 * Event loops and channel types of the Netty shaded inside grpc-netty-shaded (the gateway's own
 * {@code Transport} is for the unshaded Netty): epoll when its native library loads, else NIO.
 */
final class ShadedTransport {

    private static final boolean EPOLL = Epoll.isAvailable();

    private ShadedTransport() {
    }

    static EventLoopGroup newGroup(int threads, String name) {
        IoHandlerFactory handlers = EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name), handlers);
    }

    static Class<? extends Channel> socketChannel() {
        return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    static Class<? extends ServerChannel> serverChannel() {
        return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }
}
