package io.tollgate.core.filter;

/** What a {@link NetworkFilter} tells its chain after seeing an event. */
public enum NetworkFilterStatus {
    /** Pass the event on to the next filter. */
    CONTINUE,
    /**
     * Hold the connection: the chain stops here, reading from the client stops, and what was read
     * waits until the filter calls {@link NetworkConnection#resume()}.
     */
    STOP
}
