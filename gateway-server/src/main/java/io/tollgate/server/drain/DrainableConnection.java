package io.tollgate.server.drain;

/**
 * The protocol end of a downstream connection (a handler in its pipeline) that knows how to end
 * the connection gracefully: let what is in flight finish, tell the client to go elsewhere in the
 * protocol's own way, and close once nothing is left.
 */
public interface DrainableConnection {

    /**
     * How long a draining connection stays open once it has nothing in flight, before it closes:
     * a request the client sent just as the drain began may still be on the wire (closing with
     * it unread would reset the connection and fail it), and RPC clients hand a response to a
     * worker thread and fail every call still pending when the connection closes (sofa-bolt's
     * RpcClient does), so closing at once can fail the very call just answered.
     */
    long IDLE_LINGER_MILLIS = 1000;

    /**
     * Starts draining the connection; it closes itself once its work in flight is done and
     * {@link #IDLE_LINGER_MILLIS} passed without new work. Calling it again changes nothing. MUST
     * run on the connection's event loop.
     */
    void drain();
}
