package io.tollgate.server.listener;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.server.Gateway;
import io.tollgate.server.transport.Transport;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A second socket that serves one of a running gateway's listeners with the real protocol
 * pipelines, and hands each accepted downstream connection to the test, so that a test can act
 * on a connection (drain it) as the gateway's own machinery would.
 */
public final class CapturingListener implements AutoCloseable {

    private final EventLoopGroup group;
    private final Channel server;
    private final BlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();

    private CapturingListener(Gateway gateway, String listenerName) throws InterruptedException {
        ListenerConfig config = gateway.snapshot().config().listeners().stream()
                .filter(l -> l.name().equals(listenerName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("listener: " + listenerName + " (expected one of the gateway's)"));
        Transport transport = Transport.NIO;
        GatewayMetrics metrics = gateway.metrics();
        List<DownstreamProtocol> protocols = new DownstreamProtocols(gateway::snapshot, transport, metrics)
                .forListener(config, null);
        group = transport.newGroup(1, "capturing-listener");
        server = new ServerBootstrap().group(group).channel(transport.serverChannel())
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        protocols.get(0).configure(ch.pipeline());
                        accepted.add(ch);
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
    }

    /** Serves {@code listenerName} of {@code gateway} (its first protocol) on a new port. */
    public static CapturingListener of(Gateway gateway, String listenerName) throws InterruptedException {
        return new CapturingListener(gateway, listenerName);
    }

    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** The next accepted connection; fails after 5 s. */
    public Channel nextConnection() throws InterruptedException {
        Channel channel = accepted.poll(5, TimeUnit.SECONDS);
        if (channel == null) {
            throw new AssertionError("no connection accepted within 5 s");
        }
        return channel;
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
