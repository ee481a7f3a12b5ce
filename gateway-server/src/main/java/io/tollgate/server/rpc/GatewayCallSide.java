package io.tollgate.server.rpc;

import io.tollgate.protocols.rpc.RpcError;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.server.exchange.ExchangeRecord;
import io.tollgate.server.filter.FilterRun;

/**
 * The side of a call the gateway made itself: it hands the answer to its {@link CallAnswer}, which
 * writes its own response. Its request was read whole before the call, so there is nothing to pause.
 */
final class GatewayCallSide implements CallSide {

    private final CallAnswer answer;
    private String reason;

    GatewayCallSide(CallAnswer answer) {
        this.answer = answer;
    }

    @Override
    public void pauseWhileFull(RpcUpstreamConnection connection) {
        // the request is read whole: nothing more comes to pause
    }

    @Override
    public void answer(ExchangeRecord record, FilterRun filters, RpcFrame response, long callerId, int status) {
        answer.answered(response);
    }

    @Override
    public void failed(String reason) {
        this.reason = reason;
    }

    @Override
    public void reply(ExchangeRecord record, FilterRun filters, int replyForm, long requestId, RpcError error) {
        answer.failed(error, reason);
    }

    @Override
    public void ended(RpcCall call) {
        // nothing to forget: the call is the only one of its side
    }
}
