package io.tollgate.server.inheritance;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The counters of hot restarts: {@code tollgate.hot_restart.connections{event="moved"}} in the
 * process that hands connections over (carried on to the next with every other counter),
 * {@code {event="adopted"}} in the one that takes them, and {@code {event="lost"}} for one that
 * closed in between; plus carrying counters over.
 */
public final class HotRestartMeters {

    private static final Logger log = LoggerFactory.getLogger(HotRestartMeters.class);
    private static final String CONNECTIONS = "tollgate.hot_restart.connections";

    private HotRestartMeters() {
    }

    public static Counter connections(MeterRegistry registry, String event) {
        return Counter.builder(CONNECTIONS).tag("event", event)
                .description("downstream connections moved between processes by hot restarts").register(registry);
    }

    /** Adds every value to the same counter of {@code registry}; logs those the registry refuses. */
    public static void addAll(List<CounterValue> values, MeterRegistry registry) {
        int refused = 0;
        for (CounterValue value : values) {
            if (!value.addTo(registry)) {
                refused++;
            }
        }
        if (refused > 0) {
            log.warn("hot restart: {} of {} counters of the previous process do not fit this version's and start from zero",
                    refused, values.size());
        }
    }
}
