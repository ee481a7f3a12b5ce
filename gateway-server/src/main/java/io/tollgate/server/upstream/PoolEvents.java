package io.tollgate.server.upstream;

/** What a connection pool reports, so that metrics stay out of the pool's logic. */
public interface PoolEvents {

    void connectionOpened();

    void connectionClosed();

    void connectFailure();

    void overflow();

    /** Reports nothing. */
    PoolEvents NONE = new PoolEvents() {
        @Override
        public void connectionOpened() {
        }

        @Override
        public void connectionClosed() {
        }

        @Override
        public void connectFailure() {
        }

        @Override
        public void overflow() {
        }
    };
}
