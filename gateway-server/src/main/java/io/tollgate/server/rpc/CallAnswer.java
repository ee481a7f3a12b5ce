package io.tollgate.server.rpc;

import io.tollgate.protocols.rpc.RpcError;
import io.tollgate.protocols.rpc.RpcFrame;

/**
 * Where the answer to a call the gateway made itself ({@link RpcUpstreams#call}) goes: an HTTP
 * request's exchange, which turns it into its own response and finishes the request's record.
 * Exactly one method is called, once, on the call's event loop, unless the call is abandoned.
 */
public interface CallAnswer {

    /** The provider's response; ownership passes here. */
    void answered(RpcFrame response);

    /** The gateway answers the call with {@code error}, counted by {@code reason}. */
    void failed(RpcError error, String reason);
}
