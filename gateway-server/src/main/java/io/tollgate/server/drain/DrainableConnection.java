package io.tollgate.server.drain;

/**
 * The protocol end of a downstream connection (a handler in its pipeline) that knows how to end
 * the connection gracefully: let what is in flight finish, tell the client to go elsewhere in the
 * protocol's own way, and close once nothing is left.
 */
public interface DrainableConnection {

    /**
     * Starts draining the connection; it closes itself once its work in flight is done (at once
     * when it has none). Calling it again changes nothing. MUST run on the connection's event loop.
     */
    void drain();
}
