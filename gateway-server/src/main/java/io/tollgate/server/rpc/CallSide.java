package io.tollgate.server.rpc;

import io.tollgate.protocols.rpc.RpcError;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.server.exchange.ExchangeRecord;
import io.tollgate.server.filter.FilterRun;

/**
 * Who waits for an {@link RpcCall}'s answer: the RPC connection the call came in on
 * ({@link RpcDownstreamHandler}), or an HTTP request the gateway made the call of
 * ({@link GatewayCallSide}). Called on the call's event loop.
 */
interface CallSide {

    /** The call just sent on {@code connection}: the side stops taking requests while it is full. */
    void pauseWhileFull(RpcUpstreamConnection connection);

    /**
     * The provider's {@code response} (ownership passes here) to the call of {@code callerId},
     * whose {@code status} is its HTTP meaning: the side answers with it and finishes {@code record}.
     */
    void answer(ExchangeRecord record, FilterRun filters, RpcFrame response, long callerId, int status);

    /** Counts a call the gateway answers with an error, by {@code reason}. */
    void failed(String reason);

    /** Answers the call of {@code requestId} with a gateway-made {@code error} and finishes {@code record}. */
    void reply(ExchangeRecord record, FilterRun filters, int replyForm, long requestId, RpcError error);

    /** The call ended, whichever way. */
    void ended(RpcCall call);
}
