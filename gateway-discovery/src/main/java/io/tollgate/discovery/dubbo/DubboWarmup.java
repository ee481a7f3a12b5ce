package io.tollgate.discovery.dubbo;

/**
 * Dubbo's warmup (slow start), computed as Dubbo's own load balancers compute it: a provider's
 * weight grows linearly from its start (its {@code timestamp}, milliseconds since the epoch) over
 * its {@code warmup} (10 minutes unless it sets one), never below 1; a start in the future gives 1.
 * The gateway computes it again {@link #STEPS} times over a warmup.
 */
public final class DubboWarmup {

    /** Dubbo's warmup when the provider sets none. */
    public static final long DEFAULT_WARMUP_MILLIS = 10 * 60 * 1000;
    /** How many times the weight is computed again over one warmup. */
    public static final int STEPS = 20;
    private static final long MIN_STEP_MILLIS = 1_000;
    private static final long MAX_STEP_MILLIS = 30_000;

    private DubboWarmup() {
    }

    /**
     * The weight of a provider of full {@code weight} started at {@code startMillis} (0: unknown,
     * no warmup) with {@code warmupMillis}, at {@code nowMillis}.
     */
    public static int weight(int weight, long startMillis, long warmupMillis, long nowMillis) {
        if (weight <= 0 || startMillis <= 0) {
            return weight;
        }
        long uptime = nowMillis - startMillis;
        if (uptime < 0) {
            return 1;
        }
        if (uptime == 0 || uptime >= warmupMillis) {
            return weight;
        }
        int warmed = (int) (uptime / ((float) warmupMillis / weight));
        return warmed < 1 ? 1 : Math.min(warmed, weight);
    }

    /** How long after a computation the weight of a provider warming up over {@code warmupMillis} is computed again. */
    public static long step(long warmupMillis) {
        return Math.max(MIN_STEP_MILLIS, Math.min(MAX_STEP_MILLIS, warmupMillis / STEPS));
    }
}
