package io.tollgate.server.http;

import io.netty.handler.codec.http.HttpContent;
import io.tollgate.router.cluster.Host;

/**
 * The exchange an {@link HttpDownstream} serves its request with: a proxied HTTP exchange
 * ({@link HttpExchange}), or an RPC call made of the request ({@link RpcCallExchange}). It takes the
 * rest of the request's body and hears of the downstream's events; it reports its end through
 * {@link HttpDownstream#exchangeDone}.
 */
interface DownstreamExchange {

    /**
     * Starts the exchange with its first attempt on {@code host}; called while the downstream reads
     * (the end of its read batch calls {@link #flushUpstream}).
     */
    void start(Host host);

    /** A part of the request's body; ownership passes here. */
    void requestContent(HttpContent content);

    /** The end of a read batch: what went upstream in it is flushed. */
    void flushUpstream();

    /** The downstream can take more, or cannot. */
    void downstreamWritabilityChanged(boolean writable);

    /** The downstream went away: the exchange ends unanswered. */
    void downstreamClosed();
}
