package io.tollgate.server.http;

import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;

/**
 * The request parts an HTTP/1 client sent behind the request being served, decoded and kept in
 * arrival order until their turn; what is still queued when the connection ends is released.
 */
final class PipelinedRequests extends ArrayDeque<Object> {

    PipelinedRequests() {
        super(4);
    }

    /** Releases every queued part: the connection will not serve them. */
    void releaseAll() {
        Object msg;
        while ((msg = pollFirst()) != null) {
            ReferenceCountUtil.release(msg);
        }
    }
}
