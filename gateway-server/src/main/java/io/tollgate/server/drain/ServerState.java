package io.tollgate.server.drain;

/**
 * The process's state as Envoy's {@code /server_info} names it and its {@code server.state} gauge
 * numbers it.
 */
public enum ServerState {
    /** Serving, and {@code /ready} says so. */
    LIVE(0),
    /** Draining, or failing health checks on request ({@code POST /healthcheck/fail}). */
    DRAINING(1),
    /** Starting: listeners and clusters are being set up. */
    PRE_INITIALIZING(2),
    /** Started, waiting for the first configuration from the xDS control plane. */
    INITIALIZING(3);

    private final int code;

    ServerState(int code) {
        this.code = code;
    }

    /** Envoy's number for the state. */
    public int code() {
        return code;
    }
}
