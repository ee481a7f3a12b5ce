package io.tollgate.server.rpc;

/**
 * A call the gateway made itself, in flight on the RPC engine: its maker may abandon it when its
 * own client goes away. Confined to the call's event loop.
 */
public final class GatewayCall {

    private final RpcCall call;

    GatewayCall(RpcCall call) {
        this.call = call;
    }

    /** The client went away: the call ends unanswered (a late response is dropped). */
    public void abandon() {
        call.abandon();
    }
}
