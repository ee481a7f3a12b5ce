package io.tollgate.server.upstream;

import io.netty.handler.codec.http.HttpObject;

/** Receives what happens on an upstream HTTP/1 connection or HTTP/2 stream while it serves one exchange. */
public interface UpstreamListener {

    /** A decoded response part; ownership passes to the listener, which MUST release it. */
    void onResponse(HttpObject msg);

    /** The connection's current read batch ended: the moment to flush downstream. */
    void onResponseBatchComplete();

    /** The connection closed or failed before the exchange unbound it. */
    void onUpstreamClosed();

    /** The connection's outbound buffer crossed a watermark. */
    void onUpstreamWritabilityChanged(boolean writable);
}
