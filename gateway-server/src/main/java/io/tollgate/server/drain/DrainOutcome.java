package io.tollgate.server.drain;

import java.time.Duration;

/**
 * How a drain ended.
 *
 * @param trigger what started it
 * @param connectionsAtStart the connections open when it started
 * @param closedUnfinished the connections it closed at its timeout, or when ended at once, with work unfinished
 * @param result {@code drained}, {@code timeout} or {@code ended}
 * @param took from its start to its end
 */
public record DrainOutcome(DrainTrigger trigger, int connectionsAtStart, int closedUnfinished, String result,
        Duration took) {

    /** Whether every connection finished its work in time. */
    public boolean drained() {
        return closedUnfinished == 0;
    }
}
