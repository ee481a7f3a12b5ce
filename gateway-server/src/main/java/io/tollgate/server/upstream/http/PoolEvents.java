package io.tollgate.server.upstream.http;

import io.tollgate.core.metrics.ConnectionErrorMeters;

/** What a connection pool reports, so that metrics stay out of the pool's logic. */
public interface PoolEvents {

    void connectionOpened();

    void connectionClosed();

    void connectFailure();

    /** The pool learned that its host died: its idle connections closed, its waiters moved away. */
    void hostDown();

    /** A request found the pending queue (or the cluster's pending breaker) full. */
    void overflow();

    /** A connection was not opened because the cluster's connection breaker was reached. */
    void connectionOverflow();

    /** Where errors that end the pool's connections are counted. */
    ConnectionErrorMeters connectionErrors();
}
