package io.tollgate.server.transport;

/**
 * What the handler of a plaintext downstream connection tells a hot restart about the connection:
 * which protocol it speaks and whether it could move to the next process as it is now. A connection
 * whose handler is not one of these (HTTP/2, TLS) drains instead of moving. Both methods run on the
 * connection's event loop.
 */
public interface MovableConnection {

    /** The protocol's name as listeners configure it ({@code http1}, {@code bolt}, ...), null while not yet known. */
    String protocol();

    /**
     * Whether no part of a next request or frame was read: the connection may stop reading here
     * without leaving a message half read.
     */
    boolean betweenMessages();

    /**
     * Whether nothing of the connection is in flight in this process: {@link #betweenMessages()}
     * and no request or call unanswered. Only then may it move.
     */
    boolean quiescent();

    /** Whether an RPC connection already sent its first frame (always true for HTTP/1). */
    default boolean firstFrameSeen() {
        return true;
    }
}
