package io.tollgate.core.filter;

/**
 * Hears the upstream attempts of one request, one after another (the first try, then each retry
 * or re-dispatch to another host), so that the {@code trace} filter can give each its own span.
 * Called on the request's event loop; an implementation must not block.
 */
public interface AttemptListener {

    /** An attempt starts: the request goes to a host (which {@link #attemptEnded} names). */
    void attemptStarted();

    /**
     * The attempt started last ended.
     *
     * @param host the host it went to, {@code address:port}
     * @param status the status its host answered (an RPC status's HTTP meaning), or 0 when it gave none
     *     (the connection failed or closed, the per-try timeout passed, a oneway call)
     */
    void attemptEnded(String host, int status);
}
