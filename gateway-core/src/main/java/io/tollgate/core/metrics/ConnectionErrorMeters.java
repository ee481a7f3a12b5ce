package io.tollgate.core.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.concurrent.TimeUnit;

/**
 * Counts the errors that end connections, on either side, apart by kind: the peer reset or
 * closed the socket (an I/O error, routine), or something unexpected failed in our handlers (a
 * bug to look at). One instance per process, shared by every listener and cluster.
 */
public final class ConnectionErrorMeters {

    /** Unexpected errors are logged at WARN at most once per this many seconds. */
    public static final long WARN_INTERVAL_SECONDS = 10;

    private final Counter downstreamPeerReset;
    private final Counter downstreamUnexpected;
    private final Counter upstreamPeerReset;
    private final Counter upstreamUnexpected;
    private final WarnLimiter unexpectedWarnings = new WarnLimiter(TimeUnit.SECONDS.toNanos(WARN_INTERVAL_SECONDS));

    ConnectionErrorMeters(MeterRegistry registry) {
        downstreamPeerReset = counter(registry, "downstream", "peer_reset");
        downstreamUnexpected = counter(registry, "downstream", "unexpected");
        upstreamPeerReset = counter(registry, "upstream", "peer_reset");
        upstreamUnexpected = counter(registry, "upstream", "unexpected");
    }

    private static Counter counter(MeterRegistry registry, String side, String kind) {
        return registry.counter(MetricNames.CONNECTION_ERROR,
                Tags.of(MetricNames.TAG_SIDE, side, MetricNames.TAG_KIND, kind));
    }

    /**
     * Whether an unexpected error may be logged at WARN now, at most once per
     * {@value #WARN_INTERVAL_SECONDS} s for the process; the others are counted all the same.
     */
    public boolean mayWarn() {
        return unexpectedWarnings.tryAcquire();
    }

    /**
     * Counts one error that ended a connection.
     *
     * @param downstream whether the connection is a client's (else a host's)
     * @param peerReset whether it was the peer's doing (an I/O error) rather than unexpected
     */
    public void count(boolean downstream, boolean peerReset) {
        if (downstream) {
            (peerReset ? downstreamPeerReset : downstreamUnexpected).increment();
        } else {
            (peerReset ? upstreamPeerReset : upstreamUnexpected).increment();
        }
    }
}
