package io.tollgate.server.http;

import io.netty.handler.codec.http.HttpObject;
import io.tollgate.server.upstream.http.UpstreamPool;

/**
 * What an {@link HttpAttempt} reports to: the exchange it tries for, a proxied request
 * ({@link HttpExchange}) or a transcoded gRPC call ({@link GrpcJsonExchange}). Each method is
 * called on the attempt's event loop while the attempt has not ended; the attempt relays what it
 * hears of its pool, connection and per-try timeout and decides nothing itself.
 */
interface AttemptOwner {

    /** The attempt has its connection (or HTTP/2 stream), bound to it and counted on its host. */
    void attemptConnected(HttpAttempt connected);

    /** The attempt got no connection: it could not connect, its host died while it waited, or the pool overflowed. */
    void attemptNotConnected(HttpAttempt failed, UpstreamPool.Failure failure);

    /** A part of the attempt's response; ownership passes here. */
    void attemptResponse(HttpAttempt answering, HttpObject msg);

    /** The attempt's connection ended a read batch: the moment to flush downstream. */
    void responseBatchComplete();

    /** The attempt's connection (or stream) closed before the exchange was done with it. */
    void attemptClosed(HttpAttempt closed);

    /** The host reset the attempt's HTTP/2 stream with CANCEL: it gave up on the request. */
    void attemptCancelled(HttpAttempt cancelled);

    /** The host refused the attempt's request unprocessed (GOAWAY, REFUSED_STREAM), or none of it left. */
    void attemptRefused(HttpAttempt refused);

    /** The attempt's connection (HTTP/2: its stream's window) crossed a watermark. */
    void upstreamWritabilityChanged(boolean writable);

    /** The attempt outlived the per-try timeout. */
    void attemptTimedOut(HttpAttempt late);
}
