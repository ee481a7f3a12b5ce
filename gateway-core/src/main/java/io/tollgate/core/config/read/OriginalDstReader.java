package io.tollgate.core.config.read;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.OriginalDstConfig;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a cluster of {@code type: original_dst} and its {@code original_dst} block, and refuses
 * what such a cluster cannot have: endpoints, health checks, outlier detection and subsets (its hosts are the
 * destinations of the connections, made as they come).
 */
final class OriginalDstReader {

    /** The cluster type that selects it. */
    static final String TYPE = "original_dst";
    /** The cluster key of its settings. */
    static final String KEY = "original_dst";

    private OriginalDstReader() {
    }

    /** The settings of cluster {@code n} when its type is {@code original_dst}, else empty. */
    static Optional<OriginalDstConfig> originalDst(ConfigNode n) {
        if (!TYPE.equals(n.string("type", "static"))) {
            if (n.has(KEY)) {
                throw n.child(KEY).error("only applies to type original_dst");
            }
            return Optional.empty();
        }
        for (String key : List.of("endpoints", "health_check", "outlier_detection", "subset_lb_config", "discovery")) {
            if (n.has(key)) {
                throw n.child(key).error("does not apply to an original_dst cluster (its hosts are where each"
                        + " connection was sent)");
            }
        }
        OriginalDstConfig d = OriginalDstConfig.DEFAULTS;
        return Optional.of(n.optional(KEY).map(block -> {
            block.allowOnly(Set.of("max_hosts", "host_idle_timeout", "use_http_header"));
            return new OriginalDstConfig(block.integer("max_hosts", d.maxHosts(), 1, 1_000_000),
                    block.positiveDuration("host_idle_timeout", d.hostIdleTimeout()),
                    block.bool("use_http_header", d.useHttpHeader()));
        }).orElse(d));
    }
}
