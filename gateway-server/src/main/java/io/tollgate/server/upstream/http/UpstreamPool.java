package io.tollgate.server.upstream.http;

import io.tollgate.server.upstream.HostPool;

/**
 * The HTTP pool of one event loop to one host, a {@link HostPool}: an exchange acquires an
 * {@link UpstreamConnection} (a whole HTTP/1.1 connection or one HTTP/2 stream), uses it for one
 * request, and releases it. Confined to its event loop: every method MUST be called on it.
 */
public interface UpstreamPool extends HostPool {

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

    /** Finds a connection for {@code acquirer}: at once, after connecting, after waiting, or overflow. */
    void acquire(Acquirer acquirer);

    /** Forgets a waiting acquirer that no longer wants a connection. */
    void cancel(Acquirer acquirer);

    /**
     * Returns a connection after its exchange. {@code reusable} says the exchange ended cleanly
     * (whole request sent, whole response read); the pool decides what that allows.
     */
    void release(UpstreamConnection connection, boolean reusable);
}
