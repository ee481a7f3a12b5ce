package io.tollgate.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Tag;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Renders every meter of a registry as JSON: name, type, tags and each measured statistic, for
 * people and scripts that want numbers without a Prometheus server.
 */
final class StatsJson {

    private static final Comparator<Meter> BY_NAME_AND_TAGS = Comparator
            .comparing((Meter m) -> m.getId().getName())
            .thenComparing(m -> m.getId().getTags().toString());

    private StatsJson() {
    }

    static ObjectNode of(MeterRegistry registry) {
        ObjectNode root = AdminResponse.mapper().createObjectNode();
        ArrayNode stats = root.putArray("stats");
        List<Meter> meters = registry.getMeters().stream().sorted(BY_NAME_AND_TAGS).toList();
        for (Meter meter : meters) {
            ObjectNode stat = stats.addObject();
            stat.put("name", meter.getId().getName());
            stat.put("type", meter.getId().getType().name().toLowerCase(Locale.ROOT));
            ObjectNode tags = stat.putObject("tags");
            for (Tag tag : meter.getId().getTags()) {
                tags.put(tag.getKey(), tag.getValue());
            }
            ObjectNode values = stat.putObject("values");
            for (Measurement measurement : meter.measure()) {
                values.put(measurement.getStatistic().getTagValueRepresentation(), measurement.getValue());
            }
        }
        return root;
    }
}
