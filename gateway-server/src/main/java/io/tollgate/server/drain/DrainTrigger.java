package io.tollgate.server.drain;

/** What started a drain: named in its log lines and as the {@code trigger} tag of its meters. */
public enum DrainTrigger {
    /** The process received SIGTERM (or SIGINT): drain, then exit. */
    SIGTERM("sigterm"),
    /** The admin API's {@code POST /quitquitquit}: drain, then exit. */
    QUITQUITQUIT("quitquitquit"),
    /** The admin API's {@code POST /drain_listeners}: drain, and stay up. */
    DRAIN_LISTENERS("drain_listeners"),
    /** A new process took over the listening sockets: drain, then exit. */
    HOT_RESTART("hot_restart"),
    /** A reload or the xDS control plane removed a listener: drain that listener only. */
    LISTENER_REMOVED("listener_removed"),
    /** A reload or the xDS control plane changed a listener: its successor serves new connections, the old ones drain. */
    LISTENER_CHANGED("listener_changed");

    private final String tag;

    DrainTrigger(String tag) {
        this.tag = tag;
    }

    /** The name in meters and logs. */
    public String tag() {
        return tag;
    }
}
