package io.tollgate.core.filter;

/**
 * How one shadow copy of a request ended ({@link StreamFilterContext#mirror}), reported once per
 * copy, on the request's event loop, so that a mirroring filter can count its copies.
 */
public enum MirrorOutcome {
    /**
     * The copy went to a host of the shadow cluster and was answered there, whatever the answer
     * (a oneway RPC copy: once it was handed to a connection); the answer was read and dropped.
     */
    SENT,
    /**
     * The copy got no answer: the shadow cluster is unknown or has no host, its circuit breakers
     * refused it, the connect failed, the connection closed, or the route's timeout passed.
     */
    FAILED,
    /**
     * The copy was not sent: its body passed the size limit, the request was not forwarded (the
     * gateway answered it itself), or it ended before its body did.
     */
    SKIPPED
}
