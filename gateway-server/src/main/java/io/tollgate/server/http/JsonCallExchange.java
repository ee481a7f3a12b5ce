package io.tollgate.server.http;

import io.tollgate.protocols.generic.CallError;

/**
 * The exchange of a request to an {@code rpc_call} route, which answers its client in JSON: a call
 * to a Dubbo or SOFARPC service ({@link RpcCallExchange}) or a transcoded gRPC call
 * ({@link GrpcJsonExchange}). Its {@link JsonCallDownstream} refuses a body through it.
 */
interface JsonCallExchange extends DownstreamExchange {

    /**
     * Ends the exchange with the gateway's own failure {@code error}, in the one error contract's
     * JSON, counted and sent as {@code x-tollgate-error} by {@code reason}.
     */
    void fail(CallError error, String reason);
}
