package io.tollgate.server.rpc;

import io.netty.buffer.ByteBuf;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.filter.MirrorListener;
import io.tollgate.core.filter.MirrorOutcome;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.router.outlier.UpstreamFailure;
import io.tollgate.router.route.Route;
import io.tollgate.server.shadow.ShadowTarget;
import io.tollgate.server.snapshot.Snapshot;

/**
 * A shadow copy of one forwarded RPC call, fire and forget (Envoy's request mirroring): a copy of
 * the request frame's bytes, sent on a multiplexed connection of this loop to a host of another
 * cluster under an id of that connection's own; a two-way copy's answer is read, counted in the
 * shadow cluster's meters and dropped, a oneway copy stays oneway. The copy is made before the
 * call's own frame is sent (which rewrites its id in place) and sent on a later turn of the loop,
 * after the call; the route's timeout bounds the wait for its answer, and it holds a request of
 * the shadow cluster's circuit breakers meanwhile. Confined to the call's event loop.
 */
final class RpcShadow implements AttemptOwner {

    private final RpcLoop loop;
    private final ShadowTarget target;
    private final MirrorListener listener;
    private final long startNanos = System.nanoTime();

    private RpcShadow(RpcLoop loop, ShadowTarget target, MirrorListener listener) {
        this.loop = loop;
        this.target = target;
        this.listener = listener;
    }

    /**
     * Copies {@code frame}, a request about to be forwarded (read, not kept), for a host of
     * {@code clusterName} chosen by its load balancer, and sends the copy on the loop's next turn.
     *
     * @param view the call as routed, to choose the host with; read now only
     */
    static void start(String clusterName, MirrorListener listener, Snapshot snapshot, GatewayMetrics gatewayMetrics,
            RpcLoop loop, Route route, RpcFrame frame, RouteRequest view) {
        ShadowTarget target = ShadowTarget.choose(clusterName, snapshot, gatewayMetrics, route, view, listener);
        if (target == null) {
            return;
        }
        RpcShadow shadow = new RpcShadow(loop, target, listener);
        RpcFrame copy = copy(loop, frame);
        loop.eventLoop().execute(() -> shadow.send(copy));
    }

    /** A frame of its own with the same bytes, whose id may be rewritten without touching the original's. */
    private static RpcFrame copy(RpcLoop loop, RpcFrame frame) {
        ByteBuf bytes = frame.bytes();
        ByteBuf copy = bytes.alloc().buffer(frame.frameLength());
        try {
            copy.writeBytes(bytes, bytes.readerIndex(), frame.frameLength());
            return loop.codec().decode(copy);
        } finally {
            copy.release();
        }
    }

    /** Sends the copy, whose ownership passes here. */
    private void send(RpcFrame copy) {
        RpcHostPool pool = loop.pool(target.cluster(), target.host());
        if (copy.kind() == RpcFrame.Kind.ONEWAY) {
            try {
                if (pool.connection().send(copy, null)) {
                    listener.mirrored(MirrorOutcome.SENT);
                } else {
                    unsent(copy);
                }
            } finally {
                target.breakers().requestFinished();
            }
        } else {
            RpcAttempt attempt = new RpcAttempt(this, pool, target.breakers(), false);
            if (attempt.send(copy)) {
                attempt.start(target.timeoutNanos());
            } else {
                attempt.end();
                unsent(copy);
            }
        }
        loop.flush();
    }

    /** No connection took the copy: its pending queue or the breakers' were full, or it closed. */
    private void unsent(RpcFrame copy) {
        copy.release();
        target.metrics().poolOverflow();
        listener.mirrored(MirrorOutcome.FAILED);
    }

    @Override
    public void attemptResponded(RpcAttempt answered, RpcFrame response) {
        target.metrics().requestCompleted(response.httpStatus(), System.nanoTime() - startNanos);
        response.release();
        answered.end();
        listener.mirrored(MirrorOutcome.SENT);
    }

    @Override
    public void attemptUnsent(RpcAttempt failed, RpcFrame unsent) {
        unsent.release();
        failed.end();
        listener.mirrored(MirrorOutcome.FAILED);
    }

    @Override
    public void attemptFailed(RpcAttempt failed, ResponseFlag flag, UpstreamFailure failure) {
        if (failure == UpstreamFailure.RESET) {
            target.metrics().reset();
        }
        failed.end();
        listener.mirrored(MirrorOutcome.FAILED);
    }

    @Override
    public void attemptTimedOut(RpcAttempt late) {
        target.metrics().timeout();
        late.end();
        listener.mirrored(MirrorOutcome.FAILED);
    }
}
