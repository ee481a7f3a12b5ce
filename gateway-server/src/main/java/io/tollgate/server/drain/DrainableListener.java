package io.tollgate.server.drain;

/** A listener as a drain sees it: a name, a socket that can stop accepting, and its open connections. */
public interface DrainableListener {

    String name();

    /** Closes the listening socket, so that no new connection is accepted; closing it again changes nothing. */
    void stopAccepting();

    /** The listener's open connections. */
    ListenerConnections connections();
}
