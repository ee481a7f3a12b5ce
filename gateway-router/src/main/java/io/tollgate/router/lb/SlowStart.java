package io.tollgate.router.lb;

import io.tollgate.core.config.SlowStartConfig;
import io.tollgate.router.host.Host;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * Ramps up the share of a host that an update added to a running cluster ({@code slow_start}):
 * during the window its weight counts {@code max(min_weight_percent, (elapsed / window) ^ (1 /
 * aggression))} of itself. The balancer's own choice is kept with that probability and otherwise
 * drawn again, so the ramp works on top of any balancer without per-request weight tables.
 */
final class SlowStart {

    /** Draws after which the last one is taken even if its host is ramping (all hosts may be new). */
    private static final int MAX_DRAWS = 8;

    private final long windowNanos;
    private final double exponent;
    private final double minFactor;
    private final LongSupplier nanoClock;

    private SlowStart(SlowStartConfig config, LongSupplier nanoClock) {
        this.windowNanos = config.window().toNanos();
        this.exponent = 1 / config.aggression();
        this.minFactor = config.minWeightPercent() / 100.0;
        this.nanoClock = nanoClock;
    }

    /** The ramp of {@code config}, read against {@code nanoClock}, or null without one. */
    static SlowStart of(Optional<SlowStartConfig> config, LongSupplier nanoClock) {
        return config.map(c -> new SlowStart(c, nanoClock)).orElse(null);
    }

    /** How one balancer draws a host. */
    interface Draw {
        Host draw(Candidates candidates);
    }

    /** A host drawn by {@code draw}, drawn again (up to {@value #MAX_DRAWS} times) in proportion to how far it is from its full weight. */
    Host choose(Candidates candidates, Draw draw) {
        Host host = draw.draw(candidates);
        for (int i = 1; i < MAX_DRAWS; i++) {
            double factor = factor(host);
            if (factor >= 1 || ThreadLocalRandom.current().nextDouble() < factor) {
                return host;
            }
            host = draw.draw(candidates);
        }
        return host;
    }

    /** The share of its weight {@code host} gets now, in (0, 1]. */
    double factor(Host host) {
        long added = host.addedAtNanos();
        if (added == Host.NOT_ADDED) {
            return 1;
        }
        long elapsed = nanoClock.getAsLong() - added;
        if (elapsed >= windowNanos) {
            return 1;
        }
        double progress = Math.max(0, elapsed) / (double) windowNanos;
        return Math.max(minFactor, exponent == 1 ? progress : Math.pow(progress, exponent));
    }
}
