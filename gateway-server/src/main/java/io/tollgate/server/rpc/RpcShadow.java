package io.tollgate.server.rpc;

import io.netty.buffer.ByteBuf;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.filter.MirrorListener;
import io.tollgate.core.filter.MirrorOutcome;
import io.tollgate.core.metrics.ClusterMetrics;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.Host;
import io.tollgate.router.outlier.UpstreamFailure;
import io.tollgate.router.route.Route;
import io.tollgate.server.Snapshot;
import java.util.concurrent.TimeUnit;

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

    /** How long a shadow may wait for its answer when its route sets no timeout. */
    private static final long DEFAULT_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(15);

    private final RpcLoop loop;
    private final Cluster cluster;
    private final Host host;
    private final CircuitBreakers breakers;
    private final ClusterMetrics metrics;
    private final MirrorListener listener;
    private final long timeoutNanos;
    private final long startNanos = System.nanoTime();

    private RpcShadow(RpcLoop loop, Cluster cluster, Host host, CircuitBreakers breakers, ClusterMetrics metrics,
            MirrorListener listener, long timeoutNanos) {
        this.loop = loop;
        this.cluster = cluster;
        this.host = host;
        this.breakers = breakers;
        this.metrics = metrics;
        this.listener = listener;
        this.timeoutNanos = timeoutNanos;
    }

    /**
     * Copies {@code frame}, a request about to be forwarded (read, not kept), for a host of
     * {@code clusterName} chosen by its load balancer, and sends the copy on the loop's next turn.
     *
     * @param view the call as routed, to choose the host with; read now only
     */
    static void start(String clusterName, MirrorListener listener, Snapshot snapshot, GatewayMetrics gatewayMetrics,
            RpcLoop loop, Route route, RpcFrame frame, RouteRequest view) {
        ClusterMetrics metrics = gatewayMetrics.cluster(clusterName);
        Cluster cluster = snapshot.clusters().cluster(clusterName);
        Host host = cluster == null ? null : cluster.choose(view);
        if (host == null) {
            metrics.noHealthyHost();
            listener.mirrored(MirrorOutcome.FAILED);
            return;
        }
        CircuitBreakers breakers = cluster.circuitBreakers(route.priority());
        if (!breakers.tryStartRequest()) {
            metrics.requestOverflow();
            listener.mirrored(MirrorOutcome.FAILED);
            return;
        }
        long timeoutNanos = route.timeout().toNanos();
        RpcShadow shadow = new RpcShadow(loop, cluster, host, breakers, metrics, listener,
                timeoutNanos > 0 ? timeoutNanos : DEFAULT_TIMEOUT_NANOS);
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
        RpcHostPool pool = loop.pool(cluster, host);
        if (copy.kind() == RpcFrame.Kind.ONEWAY) {
            try {
                if (pool.connection().send(copy, null)) {
                    listener.mirrored(MirrorOutcome.SENT);
                } else {
                    unsent(copy);
                }
            } finally {
                breakers.requestFinished();
            }
        } else {
            RpcAttempt attempt = new RpcAttempt(this, pool, breakers, false);
            if (attempt.send(copy)) {
                attempt.start(timeoutNanos);
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
        metrics.poolOverflow();
        listener.mirrored(MirrorOutcome.FAILED);
    }

    @Override
    public void attemptResponded(RpcAttempt answered, RpcFrame response) {
        metrics.requestCompleted(response.httpStatus(), System.nanoTime() - startNanos);
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
            metrics.reset();
        }
        failed.end();
        listener.mirrored(MirrorOutcome.FAILED);
    }

    @Override
    public void attemptTimedOut(RpcAttempt late) {
        metrics.timeout();
        late.end();
        listener.mirrored(MirrorOutcome.FAILED);
    }
}
