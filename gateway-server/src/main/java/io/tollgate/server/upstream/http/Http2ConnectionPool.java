package io.tollgate.server.upstream.http;

import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.Http2Options;
import io.tollgate.core.metrics.ConnectionErrorMeters;
import io.tollgate.protocols.http2.Http2Codecs;
import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.router.host.Host;
import io.tollgate.server.transport.Transport;
import java.util.ArrayList;
import java.util.List;

/**
 * The HTTP/2 (h2c, prior knowledge) connections of one event loop to one upstream host. Every
 * request is a stream on one of them: a connection takes new streams while it is below the
 * host's SETTINGS_MAX_CONCURRENT_STREAMS and has not received GOAWAY; when none can, requests
 * wait in one queue ({@link Waiters}) for whichever connection has room first, and one connection
 * at a time is opened (up to the cluster's {@code max_connections_per_host} and its connection
 * breaker, which a pool without connections may pass). A connection is usable once the host's
 * first SETTINGS arrived. A connection reset tells the pool its host died. Confined to its event
 * loop, so it takes no locks.
 */
public final class Http2ConnectionPool extends AbstractUpstreamPool {

    private final Http2Options options;
    private final List<Http2UpstreamConnection> connections = new ArrayList<>();

    Http2ConnectionPool(EventLoop loop, Transport transport, Host host, ClusterConfig cluster, CircuitBreakers breakers,
            PoolEvents events) {
        super(loop, transport, host, cluster, breakers, events);
        this.options = Http2Options.DEFAULTS;
    }

    @Override
    protected boolean serveAtOnce(Acquirer acquirer) {
        Http2UpstreamConnection connection = available();
        if (connection == null) {
            return false;
        }
        connection.openStream(acquirer);
        return true;
    }

    @Override
    protected int connections() {
        return connections.size();
    }

    /** One connect at a time: the host's SETTINGS say how many streams a connection takes. */
    @Override
    protected boolean connectsNow() {
        return waiters.connecting() == 0;
    }

    /** Ends the stream, which resets it when it is still open: a stream is never reused. */
    @Override
    public void release(UpstreamConnection released, boolean reusable) {
        ((Http2UpstreamStream) released).release();
    }

    /**
     * Retires every connection: each closes once its streams end. Requests still waiting for a
     * connection being opened fail, as they would had the host gone away.
     */
    @Override
    public void drain() {
        for (Http2UpstreamConnection connection : List.copyOf(connections)) {
            connection.drain();
        }
    }

    /** Closes the ready connections without streams; those with streams end with them. */
    @Override
    protected void closeIdle() {
        for (Http2UpstreamConnection connection : List.copyOf(connections)) {
            connection.closeIfIdle();
        }
    }

    /** A connection received the host's first SETTINGS: it serves the waiters, if it may take streams. */
    void ready(Http2UpstreamConnection connection) {
        hostAlive();
        if (!connection.hasCapacity()) {
            waiters.connectEnded(othersServe(), new IllegalStateException(host + " allows no streams"));
            return;
        }
        waiters.connectSucceeded();
        dispatch();
    }

    /** A connection's capacity grew: a stream ended, or new SETTINGS or GOAWAY arrived. */
    void capacityChanged() {
        dispatch();
    }

    /** Called once when a connection's channel became inactive; {@code reset} when it failed with an I/O error. */
    void closed(Http2UpstreamConnection connection, boolean wasReady, boolean reset) {
        connections.remove(connection);
        breakers.connectionClosed();
        events.connectionClosed();
        host.meters().connectionClosed();
        if (reset) {
            hostDied();
        }
        if (!wasReady) {
            waiters.connectEnded(othersServe(),
                    new IllegalStateException(host + " closed the connection before its SETTINGS"));
            return;
        }
        dispatch();
    }

    private void dispatch() {
        while (!waiters.isEmpty()) {
            Http2UpstreamConnection connection = available();
            if (connection == null) {
                if (waiters.hasUncovered() && reserveConnect()) {
                    connect();
                }
                return;
            }
            connection.openStream(waiters.poll());
        }
    }

    private Http2UpstreamConnection available() {
        for (Http2UpstreamConnection connection : connections) {
            if (connection.hasCapacity()) {
                return connection;
            }
        }
        return null;
    }

    /** Whether a connection will take streams once some of its streams end. */
    private boolean othersServe() {
        for (Http2UpstreamConnection connection : connections) {
            if (connection.takesStreams()) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected void connect() {
        Http2UpstreamConnection connection = Http2Codecs.client(options, (decoder, encoder, settings) ->
                new Http2UpstreamConnection(decoder, encoder, settings, this, options, cluster.heartbeatInterval()));
        connections.add(connection);
        ChannelFuture future = connector.connect(connection);
        future.addListener(f -> {
            if (f.isSuccess()) {
                events.connectionOpened();
                host.meters().connectionOpened();
                return;
            }
            connections.remove(connection);
            connectFailed(f.cause(), othersServe());
        });
    }

    /** Where errors that end this pool's connections are counted. */
    ConnectionErrorMeters connectionErrors() {
        return events.connectionErrors();
    }
}
