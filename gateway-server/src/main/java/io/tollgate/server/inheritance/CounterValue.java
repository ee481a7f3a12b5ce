package io.tollgate.server.inheritance;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One counter of a process, as a hot restart carries it to the next process so that Prometheus
 * counters do not start from zero again (Envoy's hot restart carries its counters the same way).
 * Only {@code tollgate.*} counters travel: gauges are recomputed by the new process, and timers and
 * histograms start afresh.
 *
 * @param tags keys and values, alternating
 * @param description empty when none
 * @param baseUnit empty when none
 */
public record CounterValue(String name, List<String> tags, String description, String baseUnit, double count) {

    private static final String PREFIX = "tollgate.";

    /** The {@code tollgate.*} counters of {@code registry} with a count. */
    public static List<CounterValue> of(MeterRegistry registry) {
        List<CounterValue> values = new ArrayList<>();
        for (Meter meter : registry.getMeters()) {
            if (meter instanceof Counter counter && meter.getId().getName().startsWith(PREFIX) && counter.count() > 0) {
                Meter.Id id = meter.getId();
                List<String> tags = new ArrayList<>();
                for (Tag tag : id.getTagsAsIterable()) {
                    tags.add(tag.getKey());
                    tags.add(tag.getValue());
                }
                values.add(new CounterValue(id.getName(), tags, Objects.toString(id.getDescription(), ""),
                        Objects.toString(id.getBaseUnit(), ""), counter.count()));
            }
        }
        return values;
    }

    /** What each of {@code now} grew by since {@code before} (same name and tags), omitting those that did not. */
    public static List<CounterValue> increments(List<CounterValue> before, List<CounterValue> now) {
        Map<List<Object>, Double> earlier = new HashMap<>();
        for (CounterValue value : before) {
            earlier.put(value.key(), value.count());
        }
        List<CounterValue> increments = new ArrayList<>();
        for (CounterValue value : now) {
            double grown = value.count() - earlier.getOrDefault(value.key(), 0.0);
            if (grown > 0) {
                increments.add(new CounterValue(value.name(), value.tags(), value.description(), value.baseUnit(), grown));
            }
        }
        return increments;
    }

    /**
     * Adds this value to the same counter of {@code registry}, registering it when the new process
     * has not yet; false when the registry refuses it (the new version shapes that counter differently).
     */
    public boolean addTo(MeterRegistry registry) {
        Counter.Builder builder = Counter.builder(name).tags(tags.toArray(String[]::new));
        if (!description.isEmpty()) {
            builder.description(description);
        }
        if (!baseUnit.isEmpty()) {
            builder.baseUnit(baseUnit);
        }
        try {
            builder.register(registry).increment(count);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private List<Object> key() {
        return List.of(name, tags);
    }
}
