package io.tollgate.core.config.read;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import io.tollgate.core.filter.StreamFilterFactory;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a route's {@code filters} block: under the name of a filter of the route's listener,
 * either {@code disabled: true} or the settings that replace the listener's for this route, read
 * by the factory of that filter's kind; where several of the listener's filters share the name,
 * the entry applies to each (as Envoy's per-route settings do). A name the listener's chain does
 * not hold is an error: a route changes its listener's chain, it does not extend it.
 */
final class RouteFilterOverrides {

    /** Where routes have no listener (a route configuration on its own): no override is allowed. */
    static final RouteFilterOverrides NONE = new RouteFilterOverrides(List.of(), null);

    private final List<StreamFilterConfig> chain;
    private final ExtensionRegistry extensions;

    RouteFilterOverrides(List<StreamFilterConfig> chain, ExtensionRegistry extensions) {
        this.chain = chain;
        this.extensions = extensions;
    }

    Map<String, StreamFilterConfig> parse(ConfigNode n) {
        Map<String, StreamFilterConfig> overrides = new LinkedHashMap<>();
        for (String name : n.keys()) {
            ConfigNode entry = n.child(name);
            String kind = chain.stream().filter(f -> f.name().equals(name)).findFirst()
                    .orElseThrow(() -> entry.error("the listener has no filter '" + name + "' (its filters are "
                            + chain.stream().map(StreamFilterConfig::name).distinct().toList() + ")"))
                    .kind();
            StreamFilterFactory factory = extensions.find(StreamFilterConfig.class, kind, StreamFilterFactory.class)
                    .orElseThrow();
            if (entry.bool("disabled", false)) {
                entry.allowOnly(Set.of("disabled"));
                overrides.put(name, StreamFilterConfig.named(name, kind).asDisabled());
                continue;
            }
            Set<String> keys = new HashSet<>(factory.keys());
            keys.add("disabled");
            entry.allowOnly(keys);
            overrides.put(name, factory.parse(entry, StreamFilterConfig.named(name, kind)));
        }
        return overrides;
    }
}
