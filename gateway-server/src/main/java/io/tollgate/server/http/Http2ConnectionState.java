package io.tollgate.server.http;

import io.netty.channel.Channel;

/**
 * What the streams of one downstream HTTP/2 connection share, so that no stream pays for it
 * again: the client's address, and a flush of the connection that runs once per event-loop pass
 * however many streams finished a response in it (responses coming from different upstream
 * connections then leave in one write instead of one each).
 */
public final class Http2ConnectionState implements Runnable {

    private final Channel connection;
    private final PeerAddress peer;
    private boolean flushQueued;

    Http2ConnectionState(Channel connection) {
        this.connection = connection;
        this.peer = new PeerAddress(connection);
    }

    PeerAddress peer() {
        return peer;
    }

    /**
     * Flushes the connection once the event loop has handled the I/O it is working through;
     * MUST be called on the connection's event loop.
     */
    void flushSoon() {
        if (flushQueued) {
            return;
        }
        flushQueued = true;
        connection.eventLoop().execute(this);
    }

    /** The queued flush. */
    @Override
    public void run() {
        flushQueued = false;
        connection.flush();
    }
}
