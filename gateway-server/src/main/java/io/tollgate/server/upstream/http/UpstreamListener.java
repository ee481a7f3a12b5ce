package io.tollgate.server.upstream.http;

import io.netty.handler.codec.http.HttpObject;

/** Receives what happens on an upstream HTTP/1 connection or HTTP/2 stream while it serves one exchange. */
public interface UpstreamListener {

    /** A decoded response part; ownership passes to the listener, which MUST release it. */
    void onResponse(HttpObject msg);

    /** The connection's current read batch ended: the moment to flush downstream. */
    void onResponseBatchComplete();

    /** The connection closed or failed before the exchange unbound it. */
    void onUpstreamClosed();

    /** The host reset the HTTP/2 stream with CANCEL before the exchange unbound it: it gave up on the request. */
    void onUpstreamCancelled();

    /**
     * The host refused the request without processing it (HTTP/2: a GOAWAY whose last stream id is
     * below the stream, or RST_STREAM with REFUSED_STREAM), so that sending it again is safe.
     */
    void onUpstreamRefused();

    /** The connection's outbound buffer (HTTP/2: the stream's window) crossed a watermark. */
    void onUpstreamWritabilityChanged(boolean writable);
}
