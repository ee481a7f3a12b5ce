package io.tollgate.router.health;

/**
 * The verdict of active health checking on one host, from its probe results and the thresholds:
 * a healthy host turns unhealthy after {@code unhealthyThreshold} failed probes in a row, an
 * unhealthy one turns healthy after {@code healthyThreshold} passes in a row. The very first
 * result decides at once (as in Envoy), so that a host dead at start-up leaves rotation after
 * one probe rather than several.
 *
 * <p>Not thread-safe: one host's probes run one after the other on one event loop.
 */
public final class HealthCheckState {

    private final int healthyThreshold;
    private final int unhealthyThreshold;
    private boolean decided;
    private boolean healthy = true;
    private int passes;
    private int failures;

    public HealthCheckState(int healthyThreshold, int unhealthyThreshold) {
        if (healthyThreshold < 1 || unhealthyThreshold < 1) {
            throw new IllegalArgumentException("thresholds: " + healthyThreshold + "/" + unhealthyThreshold
                    + " (expected: >= 1)");
        }
        this.healthyThreshold = healthyThreshold;
        this.unhealthyThreshold = unhealthyThreshold;
    }

    /** Records one probe result; returns true when it changed the verdict. */
    public boolean record(boolean passed) {
        if (!decided) {
            decided = true;
            boolean changed = healthy != passed;
            healthy = passed;
            return changed;
        }
        if (passed) {
            failures = 0;
            return !healthy && ++passes >= healthyThreshold && flip();
        }
        passes = 0;
        return healthy && ++failures >= unhealthyThreshold && flip();
    }

    private boolean flip() {
        healthy = !healthy;
        passes = 0;
        failures = 0;
        return true;
    }

    /** The current verdict; a host not probed yet counts as healthy. */
    public boolean healthy() {
        return healthy;
    }
}
