package io.tollgate.server.upstream;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.HealthCheckConfig;
import java.time.Duration;

/**
 * What one event loop's pool knows of its host's death: after a connect failure or a reset the
 * host counts as down until the health check could decide (its interval), or until a new
 * connection to it opens. A cluster without a health check whose outlier detection counts connect
 * failures leaves the decision to it: every attempt's connect failure counts there, and the host
 * never counts as down here. A cluster with neither counts it down for one second. While the host
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

    /** Whether the host counts as down now. */
    public boolean isDown() {
        if (downUntilNanos == 0) {
            return false;
        }
        if (System.nanoTime() - downUntilNanos < 0) {
            return true;
        }
        downUntilNanos = 0;
        return false;
    }

    /**
     * The host died (again): it counts as down from now.
     *
     * @return true when this is news, false when it counted as down already
     */
    public boolean died() {
        boolean known = isDown();
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
