package io.tollgate.server.tls;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslHandler;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.router.host.Host;
import io.tollgate.server.transport.ConnectPreamble;
import io.tollgate.server.transport.Transport;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;

/**
 * Opens the connections of one event loop to one host of a cluster: plain TCP, or TLS when the
 * cluster has a {@code tls} block that applies to the host (its {@code match_labels}). Over TLS a connection counts as connected only once its
 * handshake succeeded: the returned future fails on a refused certificate as on a refused connect,
 * and the caller's handlers see {@code channelActive} only after the handshake, which must end
 * within the connect timeout too. Each connect goes to the host's {@link Host#connectAddress()} of
 * the moment, so that the host of a {@code logical_dns} cluster follows its name.
 */
public final class UpstreamConnector {

    private final Bootstrap bootstrap;
    private final Host host;
    private final UpstreamTls tls;
    private final long handshakeTimeoutMillis;

    private UpstreamConnector(Bootstrap bootstrap, Host host, UpstreamTls tls, Duration connectTimeout) {
        this.bootstrap = bootstrap;
        this.host = host;
        this.tls = tls;
        this.handshakeTimeoutMillis = connectTimeout.toMillis();
    }

    /** Connections from {@code loop} to {@code host} of {@code cluster}, abandoned after {@code connectTimeout}. */
    public static UpstreamConnector of(Transport transport, EventLoop loop, Host host, Duration connectTimeout,
            ClusterConfig cluster) {
        return of(transport.clientTo(loop, host.address(), connectTimeout), host, connectTimeout, cluster);
    }

    /**
     * Connections to {@code host} of {@code cluster} made by {@code bootstrap} (a
     * {@link Transport#clientTo} with the caller's own options), abandoned after {@code connectTimeout}.
     */
    public static UpstreamConnector of(Bootstrap bootstrap, Host host, Duration connectTimeout,
            ClusterConfig cluster) {
        return new UpstreamConnector(bootstrap, host,
                cluster.tls().filter(t -> t.appliesTo(host.labels())).map(t -> UpstreamTls.of(cluster.name(), t))
                        .orElse(null), connectTimeout);
    }

    /**
     * Connects a new channel whose pipeline {@code handler} sets up (after the TLS handlers when
     * there are any). The future completes when the connection is usable.
     */
    public ChannelFuture connect(ChannelHandler handler) {
        return connect(handler, null);
    }

    /**
     * Connects as {@link #connect(ChannelHandler)} does, sending {@code preamble} (released here;
     * null for none) before any other byte, before the TLS handshake too: a PROXY protocol header.
     */
    public ChannelFuture connect(ChannelHandler handler, ByteBuf preamble) {
        InetSocketAddress target = host.connectAddress();
        if (tls == null && preamble == null) {
            return bootstrap.clone().handler(handler).connect(target);
        }
        if (tls == null) {
            return bootstrap.clone().handler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(new ConnectPreamble(preamble)).addLast(handler);
                }
            }).connect(target);
        }
        ChannelFuture connect = bootstrap.clone().handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                if (preamble != null) {
                    ch.pipeline().addLast(new ConnectPreamble(preamble));
                }
                SslHandler ssl = tls.newHandler(ch.alloc(), host.address());
                ssl.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
                ch.pipeline().addLast("tls", ssl)
                        .addLast("tls-gate", new HandshakeGate())
                        .addLast(handler);
            }
        }).connect(target);
        ChannelPromise ready = connect.channel().newPromise();
        connect.addListener(f -> {
            if (!f.isSuccess()) {
                ready.tryFailure(f.cause());
                return;
            }
            SslHandler ssl = connect.channel().pipeline().get(SslHandler.class);
            if (ssl == null) {
                ready.tryFailure(new ClosedChannelException());
                return;
            }
            ssl.handshakeFuture().addListener(h -> {
                if (h.isSuccess()) {
                    ready.trySuccess();
                } else {
                    ready.tryFailure(h.cause());
                }
            });
        });
        return ready;
    }
}
