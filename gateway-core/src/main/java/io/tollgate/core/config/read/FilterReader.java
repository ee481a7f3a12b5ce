package io.tollgate.core.config.read;

import io.tollgate.core.accesslog.FormatException;
import io.tollgate.core.accesslog.LineFormats;
import io.tollgate.core.config.AccessLogConfig;
import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.NetworkFilterConfig;
import io.tollgate.core.config.NetworkFilterEntry;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.extension.ExtensionFactory;
import io.tollgate.core.extension.ExtensionRegistry;
import io.tollgate.core.filter.ClusterReferences;
import io.tollgate.core.filter.StreamFilterFactory;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads what a listener runs on its traffic besides routing: its stream {@code filters}, its
 * {@code network_filters} and its {@code access_log}, and a route's overrides of the stream
 * filters. Each filter is found by name and reads its own settings; the clusters a filter names
 * are noted for the check once every cluster is known.
 */
final class FilterReader {

    private FilterReader() {
    }

    /** A listener's {@code filters}, in order; filters of one name are of one kind. */
    static List<StreamFilterConfig> streamFilters(ConfigNode listener, ExtensionRegistry extensions) {
        List<StreamFilterConfig> filters = listener.list("filters", f -> streamFilter(f, extensions));
        oneKindPerName(listener.child("filters"), filters);
        return filters;
    }

    /**
     * One entry of a listener's {@code filters}: {@code name}, an optional {@code kind} (the
     * registered filter; default: the name), and the keys the filter of that kind reads; or
     * {@code name} and {@code disabled: true}, a filter that runs only on the routes that give it
     * settings of their own (Envoy's {@code disabled} HTTP filter). A name of one's own is no
     * other kind's name, so that a route's override under a kind's name is for that kind.
     */
    private static StreamFilterConfig streamFilter(ConfigNode n, ExtensionRegistry extensions) {
        String name = n.string("name");
        String kind = n.string("kind", name);
        StreamFilterFactory factory = extensions.find(StreamFilterConfig.class, kind, StreamFilterFactory.class)
                .orElseThrow(() -> n.has("kind")
                        ? n.child("kind").error("unknown filter kind '" + kind + "' (expected one of "
                                + extensions.names(StreamFilterConfig.class) + ")")
                        : n.child("name").error("unknown filter '" + name + "' (expected one of "
                                + extensions.names(StreamFilterConfig.class) + ", or a name of its own beside its kind)"));
        if (!name.equals(kind) && extensions.find(StreamFilterConfig.class, name, StreamFilterFactory.class).isPresent()) {
            throw n.child("name").error("'" + name + "' is another kind of filter than kind '" + kind
                    + "' (expected a name that is no filter kind, or kind " + name + ")");
        }
        StreamFilterConfig entry = StreamFilterConfig.named(name, kind);
        if (n.bool("disabled", false)) {
            n.allowOnly(Set.of("name", "kind", "disabled"));
            return entry.asDisabled();
        }
        Set<String> keys = new HashSet<>(factory.keys());
        keys.add("name");
        keys.add("kind");
        keys.add("disabled");
        n.allowOnly(keys);
        return referencesOf(n, factory.parse(n, entry));
    }

    /** Notes the clusters {@code filter}, read at {@code n}, names; returns it. */
    private static StreamFilterConfig referencesOf(ConfigNode n, StreamFilterConfig filter) {
        if (filter.settings() instanceof ClusterReferences references) {
            references.clusters().forEach(cluster -> n.child("cluster").referenceToCluster(cluster));
        }
        return filter;
    }

    /**
     * Fails on the first filter of {@code filters} (the list at {@code list}) that shares its name
     * with an earlier one of another kind. Filters of one kind may share a name, as Envoy's HTTP
     * filters may (Istio names its DENY and ALLOW RBAC filters alike): a route's override under
     * the name applies to each of them.
     */
    private static void oneKindPerName(ConfigNode list, List<StreamFilterConfig> filters) {
        Map<String, Integer> first = new HashMap<>();
        for (int i = 0; i < filters.size(); i++) {
            StreamFilterConfig filter = filters.get(i);
            Integer earlier = first.putIfAbsent(filter.name(), i);
            if (earlier != null && !filters.get(earlier).kind().equals(filter.kind())) {
                throw list.element(i).child("name").error("'" + filter.name() + "' also names " + list.path() + "["
                        + earlier + "], a " + filters.get(earlier).kind() + " filter (expected filters of one name"
                        + " to be of one kind: a route's override under the name applies to each)");
            }
        }
    }

    /** Reads an {@code access_log} block and compiles its format once here, so a bad operator fails the load. */
    static AccessLogConfig accessLog(ConfigNode a) {
        a.allowOnly(Set.of("path", "format", "json_format"));
        if (a.has("format") && a.has("json_format")) {
            throw a.child("json_format").error("set beside format (expected one of format and json_format)");
        }
        AccessLogConfig config = new AccessLogConfig(a.string("path", ""), a.string("format", ""),
                a.stringMap("json_format"));
        try {
            LineFormats.of(config);
        } catch (FormatException e) {
            throw a.child(e.field()).error(e.getMessage());
        }
        return config;
    }

    /** The listener's ordered {@code network_filters}, each read by its factory; a terminal one only last. */
    static List<NetworkFilterEntry> networkFilters(ConfigNode listener, ExtensionRegistry extensions) {
        List<NetworkFilterEntry> filters = listener.list("network_filters", f -> {
            String name = f.string("name");
            ExtensionFactory<NetworkFilterConfig> factory = extensions.find(NetworkFilterConfig.class, name)
                    .orElseThrow(() -> f.child("name").error("unknown network filter '" + name + "' (expected one of "
                            + extensions.names(NetworkFilterConfig.class) + ")"));
            Set<String> keys = new HashSet<>(factory.keys());
            keys.add("name");
            f.allowOnly(keys);
            NetworkFilterConfig config = factory.parse(f, NetworkFilterConfig.NONE);
            config.clusters().forEach(cluster -> f.child("cluster").referenceToCluster(cluster));
            return new NetworkFilterEntry(name, config);
        });
        for (int i = 0; i < filters.size() - 1; i++) {
            if (filters.get(i).config().terminal()) {
                throw listener.child("network_filters").element(i).error(filters.get(i).name()
                        + " is terminal (expected it last, followed by no other filter)");
            }
        }
        return filters;
    }

    /** A route's overrides of its listener's stream filters, noting the clusters they name. */
    static Map<String, StreamFilterConfig> overrides(ConfigNode n, RouteFilterOverrides overrides) {
        Map<String, StreamFilterConfig> parsed = overrides.parse(n);
        parsed.forEach((name, override) -> referencesOf(n.child(name), override));
        return parsed;
    }
}
