package io.tollgate.server.shadow;

import io.tollgate.core.filter.MirrorListener;
import io.tollgate.core.filter.MirrorOutcome;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.route.Route;
import io.tollgate.server.snapshot.Snapshot;

/**
 * A shadow copy of one forwarded request, whatever its protocol, fire and forget (Envoy's request
 * mirroring): where the copy goes ({@link ShadowTarget}), and what became of it, counted in the
 * shadow cluster's meters and told once to the filter that asked for it. The protocol's part copies
 * the request and sends the copy on its own connections (an HTTP pooled attempt, an RPC attempt on a
 * multiplexed connection), gives back what it took from the shadow cluster's breakers when its
 * attempt ends, and reports here how the copy ended. Confined to the request's event loop.
 */
public final class Shadow {

    private final ShadowTarget target;
    private final MirrorListener listener;
    private final long startNanos = System.nanoTime();
    private boolean ended;

    private Shadow(ShadowTarget target, MirrorListener listener) {
        this.target = target;
        this.listener = listener;
    }

    /**
     * A copy of a request routed by {@code route}, to a host of {@code clusterName} chosen by its
     * load balancer; null, reported {@link MirrorOutcome#FAILED}, when there is none to take it (see
     * {@link ShadowTarget#choose}).
     *
     * @param view the request as routed; read now only
     */
    public static Shadow start(String clusterName, Snapshot snapshot, GatewayMetrics gatewayMetrics, Route route,
            RouteRequest view, MirrorListener listener) {
        ShadowTarget target = ShadowTarget.choose(clusterName, snapshot, gatewayMetrics, route, view, listener);
        return target == null ? null : new Shadow(target, listener);
    }

    /** Where the copy goes; the protocol's attempt gives its breakers' request back when it ends. */
    public ShadowTarget target() {
        return target;
    }

    /** The copy's answer came, with {@code httpStatus} (or its meaning): counted, and the copy was sent. */
    public void answered(int httpStatus) {
        target.metrics().requestCompleted(httpStatus, System.nanoTime() - startNanos);
        end(MirrorOutcome.SENT);
    }

    /** A copy that expects no answer (a oneway call) went out. */
    public void sent() {
        end(MirrorOutcome.SENT);
    }

    /** The copy was given up before it was sent: its request's body was over the limit, or never whole. */
    public void skipped() {
        end(MirrorOutcome.SKIPPED);
    }

    /** No connection took the copy: its pending queue or the breakers' were full. */
    public void overflowed() {
        target.metrics().poolOverflow();
        end(MirrorOutcome.FAILED);
    }

    /** The copy's connection could not be had, or closed before the answer. */
    public void failed() {
        end(MirrorOutcome.FAILED);
    }

    /** The host reset the copy's connection or stream before the answer. */
    public void reset() {
        target.metrics().reset();
        end(MirrorOutcome.FAILED);
    }

    /** The route's timeout passed before the copy's answer. */
    public void timedOut() {
        target.metrics().timeout();
        end(MirrorOutcome.FAILED);
    }

    private void end(MirrorOutcome outcome) {
        if (!ended) {
            ended = true;
            listener.mirrored(outcome);
        }
    }
}
