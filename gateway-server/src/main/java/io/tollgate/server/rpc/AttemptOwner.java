package io.tollgate.server.rpc;

import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.router.outlier.UpstreamFailure;

/**
 * What an {@link RpcAttempt} reports to: the {@link RpcCall} it tries for, or a shadow copy of a
 * call ({@link RpcShadowCopy}). Each method is called at most once per attempt, while it has not
 * ended, on the attempt's event loop.
 */
interface AttemptOwner {

    /** The attempt's response, whose ownership passes here. */
    void attemptResponded(RpcAttempt answered, RpcFrame response);

    /** The attempt's connection never opened: {@code unsent} (ownership passes here) was never sent. */
    void attemptUnsent(RpcAttempt failed, RpcFrame unsent);

    /** The attempt's connection closed before the response came. */
    void attemptFailed(RpcAttempt failed, ResponseFlag flag, UpstreamFailure failure);

    /** The attempt's per-try timeout passed. */
    void attemptTimedOut(RpcAttempt late);
}
