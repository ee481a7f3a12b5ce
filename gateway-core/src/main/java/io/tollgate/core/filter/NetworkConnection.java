package io.tollgate.core.filter;

import java.net.SocketAddress;

/**
 * A downstream connection as its network filters see it: enough to decide on it, close it or
 * resume it after asynchronous work, without the transport's types.
 */
public interface NetworkConnection {

    /** The client's address: the one its PROXY protocol header carried, if the listener reads one, else the peer's. */
    SocketAddress remoteAddress();

    /** The listener that accepted the connection. */
    String listener();

    /**
     * Closes the connection; what was read and not yet passed on is dropped. May be called from
     * any thread.
     */
    void close();

    /**
     * Resumes a chain held by the filter that returned {@link NetworkFilterStatus#STOP}: the held
     * event goes to the next filter, then reading resumes. May be called from any thread, at most
     * once per {@code STOP}; a call for a closed connection does nothing.
     */
    void resume();
}
