package io.tollgate.server.upstream;

import io.tollgate.router.cluster.Host;

/**
 * The upstream connections of one event loop to one host, whatever the protocol: an exchange
 * acquires an {@link UpstreamConnection} (a whole HTTP/1.1 connection or one HTTP/2 stream),
 * uses it for one request, and releases it. Confined to its event loop: every method MUST be
 * called on it.
 */
public interface UpstreamPool {

    /**
     * Why an acquisition failed. Nothing of the request was sent in either of the first two cases,
     * so that it may go to another host without counting as a retry.
     */
    enum Failure {
        /** The connect made for the request failed. */
        CONNECT_FAILED,
        /** The pool learned that its host died while the request waited. */
        HOST_DOWN,
        /** The pending queue or the cluster's pending breaker was full. */
        OVERFLOW
    }

    /** Waits for a connection; exactly one of the two methods is called, on the pool's loop. */
    interface Acquirer {
        void acquired(UpstreamConnection connection);

        void failed(Failure failure, Throwable cause);
    }

    Host host();

    /**
     * Whether this pool learned recently that its host died (see {@code docs/design.md}, "When a
     * host dies"): the load balancer's choice should then go to another host when there is one.
     * One field read while the host is alive.
     */
    boolean hostDown();

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
