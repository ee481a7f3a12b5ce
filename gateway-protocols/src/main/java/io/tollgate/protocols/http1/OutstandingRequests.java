package io.tollgate.protocols.http1;

import io.netty.handler.codec.http.HttpMethod;
import java.util.ArrayDeque;

/**
 * What the two halves of one upstream HTTP/1 codec share: the methods of the requests sent and
 * not yet answered, which the decoder needs to frame a response (no body after HEAD, none after
 * a 200 to CONNECT), and how many whole requests still owe a whole response. Confined to the
 * connection's event loop.
 */
final class OutstandingRequests {

    /** The oldest method waiting, kept apart: the gateway sends one request at a time. */
    private HttpMethod oldest;
    /** The methods after {@link #oldest}, made for the first pipelined request. */
    private ArrayDeque<HttpMethod> later;
    private long owed;
    private boolean tunnelled;

    /** A request head was sent. */
    void headSent(HttpMethod method) {
        if (oldest == null) {
            oldest = method;
            return;
        }
        if (later == null) {
            later = new ArrayDeque<>(4);
        }
        later.addLast(method);
    }

    /** A request ended, so that a response is owed; nothing is owed any more once tunnelled. */
    void requestEnded() {
        if (!tunnelled) {
            owed++;
        }
    }

    /** A response ended. */
    void responseEnded() {
        owed--;
    }

    /** Takes the method of the oldest request still waiting for its response head, or null. */
    HttpMethod pollMethod() {
        HttpMethod method = oldest;
        oldest = later == null ? null : later.pollFirst();
        return method;
    }

    /** A CONNECT succeeded: from now on the bytes are a tunnel, not HTTP. */
    void tunnel() {
        tunnelled = true;
        oldest = null;
        later = null;
    }

    boolean tunnelled() {
        return tunnelled;
    }

    long owed() {
        return owed;
    }
}
