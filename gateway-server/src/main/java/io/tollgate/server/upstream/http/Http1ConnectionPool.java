package io.tollgate.server.upstream.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.handler.timeout.IdleStateHandler;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.metrics.ConnectionErrorMeters;
import io.tollgate.protocols.http1.Http1Decoders;
import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.router.host.Host;
import io.tollgate.server.transport.Transport;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP/1.1 connections of one event loop to one upstream host: idle connections are reused
 * newest first; requests that find none wait in one queue ({@link Waiters}) for whichever
 * connection becomes ready first, a released one or a new one; new ones are opened to cover the
 * waiters, up to the cluster's per-loop limit and its connection breaker; past them requests
 * wait as pending, within the cluster's pending bounds, else overflow. A connection lost before
 * any answer to its request, or reset while idle, tells the pool its host died. Confined to its
 * event loop, so it takes no locks.
 */
public final class Http1ConnectionPool extends AbstractUpstreamPool {

    private final ArrayDeque<Http1UpstreamConnection> idle = new ArrayDeque<>();
    private int open;
    private boolean draining;

    Http1ConnectionPool(EventLoop loop, Transport transport, Host host, ClusterConfig cluster, CircuitBreakers breakers,
            PoolEvents events) {
        super(loop, transport, host, cluster, breakers, events);
    }

    @Override
    protected boolean serveAtOnce(Acquirer acquirer) {
        Http1UpstreamConnection connection;
        while ((connection = idle.pollLast()) != null) {
            if (connection.isActive()) {
                acquirer.acquired(connection);
                return true;
            }
        }
        return false;
    }

    @Override
    protected int connections() {
        return open;
    }

    @Override
    protected void connectStarted() {
        open++;
    }

    /**
     * Returns a connection after an exchange. A reusable connection serves the longest waiting
     * request or goes idle; anything else is closed.
     */
    @Override
    public void release(UpstreamConnection released, boolean reusable) {
        Http1UpstreamConnection connection = (Http1UpstreamConnection) released;
        connection.unbind();
        if (!reusable || !connection.isActive()) {
            connection.channel().close();
            return;
        }
        serveOrKeep(connection);
    }

    @Override
    public void drain() {
        draining = true;
        closeIdle();
    }

    @Override
    protected void closeIdle() {
        Http1UpstreamConnection connection;
        while ((connection = idle.pollFirst()) != null) {
            connection.channel().close();
        }
    }

    /**
     * Called once when a connection's channel became inactive; {@code hostDied} when it was reset
     * while idle or before any answer to its request.
     */
    void closed(Http1UpstreamConnection connection, boolean hostDied) {
        open--;
        breakers.connectionClosed();
        events.connectionClosed();
        host.meters().connectionClosed();
        idle.remove(connection);
        if (hostDied) {
            hostDied();
        }
        while (waiters.hasUncovered() && reserveConnect()) {
            connect();
        }
    }

    /** A ready connection serves the longest waiting request, else goes idle (or closes when draining). */
    private void serveOrKeep(Http1UpstreamConnection connection) {
        Acquirer waiter = waiters.poll();
        if (waiter != null) {
            waiter.acquired(connection);
        } else if (draining) {
            connection.channel().close();
        } else {
            idle.addLast(connection);
        }
    }

    @Override
    protected void connect() {
        Http1UpstreamConnection connection = new Http1UpstreamConnection(this);
        ChannelFuture future = connector.connect(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline()
                        .addLast("codec", Http1Decoders.clientCodec(8192, 65536))
                        .addLast("idle", new IdleStateHandler(cluster.idleTimeout().toMillis(), 0, 0, TimeUnit.MILLISECONDS))
                        .addLast("upstream", connection);
            }
        });
        future.addListener(f -> {
            if (f.isSuccess()) {
                events.connectionOpened();
                host.meters().connectionOpened();
                hostAlive();
                waiters.connectSucceeded();
                serveOrKeep(connection);
                return;
            }
            open--;
            // open no longer counts this connect; waiters.connecting() still does
            connectFailed(f.cause(), open > waiters.connecting() - 1);
        });
    }

    /** Where errors that end this pool's connections are counted. */
    ConnectionErrorMeters connectionErrors() {
        return events.connectionErrors();
    }
}
