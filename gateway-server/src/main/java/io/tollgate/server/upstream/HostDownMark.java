package io.tollgate.server.upstream;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.HealthCheckConfig;
import java.time.Duration;

/**
 * What one event loop's pool knows of its host's death: after a connect failure or a reset the
 * host counts as down until a new connection to it opens, tried once per health-check interval
 * (the time the health check takes to decide). A cluster without a health check whose outlier
 * detection counts connect failures leaves the decision to it: every attempt's connect failure
 * counts there, and the host never counts as down here. A cluster with neither counts it down for one second. While the host
 * is alive, asking costs one field read. Confined to the pool's event loop.
 */
public final class HostDownMark {

    private static final long WITHOUT_HEALTH_CHECK_NANOS = Duration.ofSeconds(1).toNanos();

    private final long downNanos;
    /** While not zero: until when the host counts as down, on {@link System#nanoTime()}. */
    private long downUntilNanos;

    public HostDownMark(ClusterConfig cluster) {
        this.downNanos = cluster.healthCheck().map(HealthCheckConfig::interval).map(Duration::toNanos)
                .orElse(cluster.outlierDetection().filter(outlier -> outlier.consecutiveConnectFailure() > 0)
                        .isPresent() ? 0 : WITHOUT_HEALTH_CHECK_NANOS);
    }

    /**
     * Whether the host counts as down now. Once the interval passed, one caller hears no and is
     * the interval's trial (its connect tells whether the host is back), while the others still
     * hear yes for another interval: a dead host costs one failed connect per interval, not one
     * per request.
     */
    public boolean isDown() {
        if (downUntilNanos == 0) {
            return false;
        }
        long now = System.nanoTime();
        if (now - downUntilNanos < 0) {
            return true;
        }
        downUntilNanos = (now + downNanos) | 1;
        return false;
    }

    /**
     * The host died (again): it counts as down for an interval from now.
     *
     * @return true when this is news, false when it was not known alive since its last death
     */
    public boolean died() {
        boolean known = downUntilNanos != 0;
        if (downNanos > 0) {
            downUntilNanos = (System.nanoTime() + downNanos) | 1;
        }
        return !known;
    }

    /** A connection to the host opened: it is back. */
    public void alive() {
        downUntilNanos = 0;
    }
}
