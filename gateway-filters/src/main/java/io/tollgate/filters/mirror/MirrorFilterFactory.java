package io.tollgate.filters.mirror;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterFactory;
import java.util.Set;

/**
 * Makes the {@code mirror} filter: reads {@code cluster} (required), {@code percent} (a decimal
 * from 0 to 100, default 100), {@code max_body_bytes} (default 65536) and {@code seed} (optional).
 */
public final class MirrorFilterFactory implements StreamFilterFactory {

    @Override
    public String name() {
        return "mirror";
    }

    @Override
    public Set<String> keys() {
        return Set.of("cluster", "percent", "max_body_bytes", "seed");
    }

    @Override
    public StreamFilterConfig parse(ConfigNode node, StreamFilterConfig base) {
        String cluster = node.string("cluster");
        if (cluster.isBlank()) {
            throw node.child("cluster").error("must not be blank");
        }
        int partsPerMillion = MirrorSettings.ALL;
        if (node.has("percent")) {
            ConfigNode percent = node.child("percent");
            double value = percent.asDouble();
            if (!(value >= 0 && value <= 100)) {
                throw percent.error(value + " (expected: 0 to 100)");
            }
            partsPerMillion = (int) Math.round(value * 10_000);
        }
        long maxBody = node.longValue("max_body_bytes", MirrorSettings.DEFAULT_MAX_BODY_BYTES, 0, Integer.MAX_VALUE);
        Long seed = node.has("seed") ? node.child("seed").asLong(Long.MIN_VALUE, Long.MAX_VALUE) : null;
        return base.withSettings(new MirrorSettings(cluster, partsPerMillion, maxBody, seed));
    }

    @Override
    public StreamFilter create(StreamFilterConfig config, FilterScope scope) {
        return new MirrorFilter(config.settings(MirrorSettings.class), scope);
    }
}
