package io.tollgate.server.upstream;

/** What a connection pool reports, so that metrics stay out of the pool's logic. */
public interface PoolEvents {

    void connectionOpened();

    void connectionClosed();

    void connectFailure();

    void overflow();
}
