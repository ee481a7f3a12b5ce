package io.tollgate.server.upstream;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.handler.timeout.IdleStateHandler;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.metrics.ConnectionErrorMeters;
import io.tollgate.protocols.http1.Http1Decoders;
import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.router.cluster.Host;
import io.tollgate.server.tls.UpstreamConnector;
import io.tollgate.server.transport.Transport;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP/1.1 connections of one event loop to one upstream host: idle connections are reused
 * newest first; requests that find none wait in one queue ({@link Waiters}) for whichever
 * connection becomes ready first, a released one or a new one; new ones are opened to cover the
 * waiters, up to the cluster's per-loop limit and its connection breaker; past them requests
 * wait as pending, within the cluster's pending bounds, else overflow. Confined to its event
 * loop, so it takes no locks.
 */
public final class Http1ConnectionPool implements UpstreamPool {

    private final EventLoop loop;
    private final Host host;
    private final ClusterConfig cluster;
    private final PoolEvents events;
    private final UpstreamConnector connector;
    private final ArrayDeque<Http1UpstreamConnection> idle = new ArrayDeque<>();
    private final CircuitBreakers breakers;
    private final Waiters waiters;
    private int open;
    private boolean draining;

    Http1ConnectionPool(EventLoop loop, Transport transport, Host host, ClusterConfig cluster, CircuitBreakers breakers,
            PoolEvents events) {
        this.loop = loop;
        this.host = host;
        this.cluster = cluster;
        this.breakers = breakers;
        this.waiters = new Waiters(cluster.maxPendingRequests(), breakers, events);
        this.events = events;
        this.connector = UpstreamConnector.of(transport, loop, host.address(), cluster.connectTimeout(), cluster);
    }

    @Override
    public Host host() {
        return host;
    }

    /**
     * Finds a connection for {@code acquirer}: an idle one at once, else it waits in the queue,
     * with a new connect started for it when every waiter before it already has one.
     */
    @Override
    public void acquire(Acquirer acquirer) {
        assert loop.inEventLoop();
        Http1UpstreamConnection connection;
        while ((connection = idle.pollLast()) != null) {
            if (connection.isActive()) {
                acquirer.acquired(connection);
                return;
            }
        }
        boolean connect = waiters.wantsConnect() && reserveConnect();
        waiters.add(acquirer);
        if (connect) {
            connect();
        }
    }

    @Override
    public void cancel(Acquirer acquirer) {
        waiters.remove(acquirer);
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
        Http1UpstreamConnection connection;
        while ((connection = idle.pollFirst()) != null) {
            connection.channel().close();
        }
    }

    /** Called once when a connection's channel became inactive. */
    void closed(Http1UpstreamConnection connection) {
        open--;
        breakers.connectionClosed();
        events.connectionClosed();
        idle.remove(connection);
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

    /**
     * Whether another connection may be opened: below the per-loop limit, and within the
     * cluster's connection breaker, which a pool without any connection may pass (its waiters
     * would otherwise have nothing to wait for). When it says yes it takes the breaker's
     * connection and counts the connect as in flight, so that the caller MUST call
     * {@link #connect()}; reserving first lets a waiter queue before a connect that fails at once.
     */
    private boolean reserveConnect() {
        if (open >= cluster.maxConnectionsPerHost()) {
            return false;
        }
        if (!breakers.tryOpenConnection(open == 0)) {
            events.connectionOverflow();
            return false;
        }
        open++;
        waiters.connectStarted();
        return true;
    }

    private void connect() {
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
                waiters.connectSucceeded();
                serveOrKeep(connection);
                return;
            }
            open--;
            breakers.connectionClosed();
            events.connectFailure();
            // open no longer counts this connect; waiters.connecting() still does
            boolean established = open > waiters.connecting() - 1;
            waiters.connectEnded(established, f.cause());
        });
    }

    /** Where errors that end this pool's connections are counted. */
    ConnectionErrorMeters connectionErrors() {
        return events.connectionErrors();
    }
}
