package io.tollgate.server.rpc;

import io.netty.buffer.ByteBuf;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.filter.MirrorListener;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.router.outlier.UpstreamFailure;
import io.tollgate.router.route.Route;
import io.tollgate.server.shadow.Shadow;
import io.tollgate.server.shadow.ShadowTarget;
import io.tollgate.server.snapshot.Snapshot;

/**
 * RPC's part of a {@link Shadow}: the copy of one forwarded call, the request frame's bytes, sent
 * on a multiplexed connection of this loop to a host of another cluster under an id of that
 * connection's own; a two-way copy's answer is read and dropped, a oneway copy stays oneway. The
 * copy is made before the call's own frame is sent (which rewrites its id in place) and sent on a
 * later turn of the loop, after the call; the route's timeout bounds the wait for its answer, and
 * it holds a request of the shadow cluster's circuit breakers meanwhile. Confined to the call's
 * event loop.
 */
final class RpcShadowCopy implements AttemptOwner {

    private final RpcLoop loop;
    private final Shadow shadow;

    private RpcShadowCopy(RpcLoop loop, Shadow shadow) {
        this.loop = loop;
        this.shadow = shadow;
    }

    /**
     * Copies {@code frame}, a request about to be forwarded (read, not kept), for a host of
     * {@code clusterName} chosen by its load balancer, and sends the copy on the loop's next turn.
     *
     * @param view the call as routed, to choose the host with; read now only
     */
    static void start(String clusterName, MirrorListener listener, Snapshot snapshot, GatewayMetrics gatewayMetrics,
            RpcLoop loop, Route route, RpcFrame frame, RouteRequest view) {
        Shadow shadow = Shadow.start(clusterName, snapshot, gatewayMetrics, route, view, listener);
        if (shadow == null) {
            return;
        }
        RpcShadowCopy sender = new RpcShadowCopy(loop, shadow);
        RpcFrame copy = copy(loop, frame);
        loop.eventLoop().execute(() -> sender.send(copy));
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
        ShadowTarget target = shadow.target();
        RpcHostPool pool = loop.pool(target.cluster(), target.host());
        if (copy.kind() == RpcFrame.Kind.ONEWAY) {
            try {
                if (pool.connection().send(copy, null)) {
                    shadow.sent();
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
        shadow.overflowed();
    }

    @Override
    public void attemptResponded(RpcAttempt answered, RpcFrame response) {
        int status = response.httpStatus();
        response.release();
        answered.end();
        shadow.answered(status);
    }

    @Override
    public void attemptUnsent(RpcAttempt failed, RpcFrame unsent) {
        unsent.release();
        failed.end();
        shadow.failed();
    }

    @Override
    public void attemptFailed(RpcAttempt failed, ResponseFlag flag, UpstreamFailure failure) {
        failed.end();
        if (failure == UpstreamFailure.RESET) {
            shadow.reset();
        } else {
            shadow.failed();
        }
    }

    @Override
    public void attemptTimedOut(RpcAttempt late) {
        late.end();
        shadow.timedOut();
    }
}
