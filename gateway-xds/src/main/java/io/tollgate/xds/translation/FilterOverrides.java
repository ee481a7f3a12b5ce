package io.tollgate.xds.translation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tollgate.core.config.StreamFilterConfig;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A route's settings for its listener's HTTP filters as Envoy gives them: the
 * {@code typed_per_filter_config} of the route, of its virtual host and of its route configuration
 * (keyed by the names of the listener's filters), the deprecated {@code cors} policies, and
 * {@code request_mirror_policies}.
 * They are kept in the translated route tree until the listener is known (a route configuration
 * from RDS is translated on its own), then {@link #resolve resolved} into the gateway's route
 * {@code filters}: the route's own settings win over its virtual host's, and those over the route
 * configuration's, filter by filter. Settings under a name that several of the listener's filters
 * share (Istio's RBAC filters) are for each of them, as in Envoy.
 *
 * <p>Envoy mirrors in its router; the gateway mirrors with its {@code mirror} filter, so a listener
 * whose routes mirror gets a disabled {@code mirror} filter last in its chain (where the router
 * was), which runs only on the routes that mirror, with their settings.
 */
final class FilterOverrides {

    /**
     * A route's overrides in its tree, by level ({@code route_configuration}, {@code virtual_host},
     * {@code route}), then key.
     */
    static final String FIELD = "@filters";
    /** The key of a deprecated {@code cors} policy: for the listener's CORS filter, whatever its name. */
    static final String CORS = "@cors";
    /** The key of a route's or virtual host's {@code rate_limits}: for the listener's rate limit filters. */
    static final String RATE_LIMITS = "@rate_limits";
    /** The key of {@code request_mirror_policies}: for the gateway's {@code mirror} filter. */
    static final String MIRROR = "@mirror";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String MIRROR_FILTER = "mirror";
    /** The {@code mirror} filter a listener whose routes mirror gets, last: it runs only where a route gives it settings. */
    static final StreamFilterConfig DISABLED_MIRROR = StreamFilterConfig.named(MIRROR_FILTER).asDisabled();

    private FilterOverrides() {
    }

    /**
     * A route configuration tree with its overrides resolved for one listener.
     *
     * @param routeConfig the tree as the configuration file writes a {@code route_config}
     * @param mirrors whether a route mirrors: the listener needs the {@code mirror} filter
     */
    record Resolved(ObjectNode routeConfig, boolean mirrors) {

        /** The listener's {@code filters} for these routes: {@code chain}'s, and a disabled mirror if they mirror. */
        ArrayNode filters(ArrayNode chain) {
            ArrayNode filters = chain.deepCopy();
            if (mirrors) {
                filters.addObject().put("name", DISABLED_MIRROR.name()).put("disabled", true);
            }
            return filters;
        }
    }

    /** Records in {@code route}'s tree the settings {@code settings} at {@code level} under {@code key}; {@code at} names them. */
    static void put(ObjectNode route, String level, String key, HttpFilterTranslator.PerRoute settings, String at) {
        ObjectNode entry = JSON.objectNode().put("at", at);
        if (settings.kind() != null) {
            entry.put("kind", settings.kind());
        }
        if (settings.settings() != null) {
            entry.set("settings", settings.settings());
        }
        if (settings.listenerSettings()) {
            entry.put("listener_settings", true);
        }
        ObjectNode levels = route.has(FIELD) ? (ObjectNode) route.get(FIELD) : route.putObject(FIELD);
        (levels.has(level) ? (ObjectNode) levels.get(level) : levels.putObject(level)).set(key, entry);
    }

    /** Whether a route of {@code routeConfig} has settings for filters. */
    static boolean any(ObjectNode routeConfig) {
        return routes(routeConfig).stream().anyMatch(r -> r.has(FIELD));
    }

    /** A copy of {@code routeConfig} without the routes' filter settings. */
    static ObjectNode strip(ObjectNode routeConfig) {
        ObjectNode copy = routeConfig.deepCopy();
        routes(copy).forEach(r -> r.remove(FIELD));
        return copy;
    }

    /**
     * A copy of {@code routeConfig} whose routes' filter settings became route {@code filters} for
     * the listener ({@code listener} names it) whose HTTP filters are {@code chain}. A setting for a
     * filter the listener does not have, or of another kind than the listener's filter of that name,
     * is refused naming where it was given.
     */
    static Resolved resolve(ObjectNode routeConfig, HttpFilterTranslator.Chain chain, String listener) {
        ObjectNode copy = routeConfig.deepCopy();
        boolean mirrors = false;
        for (ObjectNode route : routes(copy)) {
            JsonNode levels = route.remove(FIELD);
            if (levels == null) {
                continue;
            }
            ObjectNode filters = JSON.objectNode();
            for (String level : List.of("route_configuration", "virtual_host", "route")) {
                Map<String, String> given = new HashMap<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = levels.path(level).fields(); it.hasNext();) {
                    Map.Entry<String, JsonNode> named = it.next();
                    JsonNode entry = named.getValue();
                    String at = entry.get("at").asText();
                    JsonNode settings = null;
                    List<String> targets = targets(named.getKey(), entry, chain, listener);
                    if (!targets.isEmpty()) {
                        settings = settings(named.getKey(), entry, chain, listener);
                    }
                    for (String filter : targets) {
                        String earlier = given.put(filter, at);
                        if (earlier != null) {
                            throw new XdsRejection(at + ": sets the " + filter + " filter, as " + earlier + " does");
                        }
                        mirrors |= filter.equals(MIRROR_FILTER);
                        if (settings == null) {
                            filters.remove(filter);
                        } else if (named.getKey().equals(RATE_LIMITS)) {
                            filters.set(filter, RateLimitTranslator.withRateLimits(listenerSettings(chain, filter),
                                    settings));
                        } else {
                            filters.set(filter, settings);
                        }
                    }
                }
            }
            if (!filters.isEmpty()) {
                route.set("filters", filters);
            }
        }
        return new Resolved(copy, mirrors);
    }

    /**
     * The names of the gateway filters the entry under {@code key} is for: one, the filters
     * Envoy's filters of that name became; each CORS filter's for a deprecated {@code cors}
     * policy; none when it is for filters the listener left out.
     */
    private static List<String> targets(String key, JsonNode entry, HttpFilterTranslator.Chain chain, String listener) {
        String at = entry.get("at").asText();
        if (key.equals(MIRROR)) {
            return List.of(MIRROR_FILTER);
        }
        if (key.equals(RATE_LIMITS)) {
            List<String> limits = chain.byName().values().stream().flatMap(List::stream)
                    .filter(f -> f.kind().equals(RateLimitTranslator.KIND))
                    .map(HttpFilterTranslator.Translated::name).distinct().toList();
            if (limits.isEmpty()) {
                throw new XdsRejection(at + ": " + listener + " has no rate limit filter (envoy.filters.http.ratelimit)"
                        + " to apply the rate limits");
            }
            return limits;
        }
        if (key.equals(CORS)) {
            List<String> cors = chain.byName().values().stream().flatMap(List::stream)
                    .filter(f -> f.kind().equals("cors")).map(HttpFilterTranslator.Translated::name).distinct().toList();
            if (cors.isEmpty()) {
                throw new XdsRejection(at + ": " + listener + " has no CORS filter (envoy.filters.http.cors) to apply"
                        + " the policy");
            }
            return cors;
        }
        List<HttpFilterTranslator.Translated> named = chain.byName().get(key);
        if (named == null) {
            throw new XdsRejection(at + ": " + listener + " has no HTTP filter named '" + key + "' (its filters: "
                    + chain.byName().keySet().stream().sorted().toList() + ")");
        }
        HttpFilterTranslator.Translated filter = named.get(0);
        if (entry.has("kind") && !entry.get("kind").asText().equals(filter.kind())) {
            throw new XdsRejection(at + ": settings of a " + entry.get("kind").asText() + " filter, but '" + key
                    + "' of " + listener + " is a " + filter.kind() + " filter");
        }
        if (named.stream().anyMatch(f -> f.state() == HttpFilterTranslator.State.INERT)) {
            if (entry.has("settings")) {
                throw new XdsRejection(at + ": '" + key + "' of " + listener + " does nothing (filter_enabled 0%),"
                        + " a route cannot enable it (not supported)");
            }
            if (named.stream().allMatch(f -> f.state() == HttpFilterTranslator.State.INERT)) {
                return List.of();
            }
        }
        return List.of(filter.name());
    }

    /**
     * The route's {@code filters} entry for the filters {@code key} names: its settings, or
     * {@code disabled: true}; null when the route runs the filters as the listener does (enabled
     * as the listener configured them, where they run already).
     */
    private static JsonNode settings(String key, JsonNode entry, HttpFilterTranslator.Chain chain, String listener) {
        if (entry.has("settings")) {
            return entry.get("settings");
        }
        if (!entry.path("listener_settings").asBoolean()) {
            return JSON.objectNode().put("disabled", true);
        }
        List<HttpFilterTranslator.Translated> named = chain.byName().get(key).stream()
                .filter(f -> f.state() != HttpFilterTranslator.State.INERT).toList();
        if (named.stream().allMatch(f -> f.state() == HttpFilterTranslator.State.ENABLED)) {
            return null;
        }
        String at = entry.get("at").asText();
        if (named.stream().anyMatch(f -> f.settings() == null)) {
            throw new XdsRejection(at + ": enables '" + key + "' of " + listener
                    + ", which has no settings of its own (give them in the FilterConfig's config)");
        }
        if (named.stream().map(HttpFilterTranslator.Translated::settings).distinct().count() > 1) {
            throw new XdsRejection(at + ": enables '" + key + "' of " + listener + ", whose " + named.size()
                    + " filters of that name have settings of their own each (not supported: give the settings in"
                    + " the FilterConfig's config)");
        }
        return named.get(0).settings();
    }

    /** The listener's settings of its filter named {@code filter}. */
    private static JsonNode listenerSettings(HttpFilterTranslator.Chain chain, String filter) {
        return chain.byName().values().stream().flatMap(List::stream).filter(f -> f.name().equals(filter))
                .findFirst().orElseThrow().settings();
    }

    private static List<ObjectNode> routes(ObjectNode routeConfig) {
        return java.util.stream.StreamSupport.stream(routeConfig.path("virtual_hosts").spliterator(), false)
                .flatMap(h -> java.util.stream.StreamSupport.stream(h.path("routes").spliterator(), false))
                .map(ObjectNode.class::cast).toList();
    }
}
