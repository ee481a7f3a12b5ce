package io.tollgate.server.upstream;

import io.tollgate.router.cluster.Host;

/**
 * The upstream connections of one event loop to one host, whatever the protocol: an exchange
 * acquires an {@link UpstreamConnection} (a whole HTTP/1.1 connection or one HTTP/2 stream),
 * uses it for one request, and releases it. Confined to its event loop: every method MUST be
 * called on it.
 */
public interface UpstreamPool {

    /** Why an acquisition failed. */
    enum Failure { CONNECT_FAILED, OVERFLOW }

    /** Waits for a connection; exactly one of the two methods is called, on the pool's loop. */
    interface Acquirer {
        void acquired(UpstreamConnection connection);

        void failed(Failure failure, Throwable cause);
    }

    Host host();

    /** Finds a connection for {@code acquirer}: at once, after connecting, after waiting, or overflow. */
    void acquire(Acquirer acquirer);

    /** Forgets a waiting acquirer that no longer wants a connection. */
    void cancel(Acquirer acquirer);

    /**
     * Returns a connection after its exchange. {@code reusable} says the exchange ended cleanly
     * (whole request sent, whole response read); the pool decides what that allows.
     */
    void release(UpstreamConnection connection, boolean reusable);

    /**
     * Closes the pool once its exchanges end, after a reload took its host or cluster away: idle
     * connections close at once, busy ones when released; waiting acquirers are still served.
     */
    void drain();
}
