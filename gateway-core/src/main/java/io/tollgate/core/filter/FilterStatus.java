package io.tollgate.core.filter;

/** What a filter tells its chain after seeing a request: go on to the next filter, or wait for it. */
public enum FilterStatus {
    /** The next filter (or, after the last, the route's action) runs at once. */
    CONTINUE,
    /**
     * The chain waits: the filter will call {@link StreamFilterContext#resume()} or
     * {@link StreamFilterContext#respond} later, on the request's event loop. The request's body
     * is held (reading pauses) meanwhile, and the route's timeout bounds the wait.
     */
    STOP
}
