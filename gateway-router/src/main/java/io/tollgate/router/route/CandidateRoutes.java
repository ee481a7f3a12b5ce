package io.tollgate.router.route;

import io.tollgate.core.config.ValueMatcherConfig;
import io.tollgate.core.route.RouteRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One candidate list of a {@link RouteIndex} (the routes of one exact path, of one prefix, or
 * the regex routes), in route order, with its routes that demand an exact value of one header
 * grouped by that value. The header is the one most of the list's routes demand exactly (Bolt's
 * {@code service}, an {@code x-tenant}); a request then reads it once and tries only the routes
 * keyed by its value merged, in route order, with the routes that do not demand a value of it.
 * A route keyed under another value cannot match, so first match wins as in a plain scan, and
 * thousands of routes told apart only by that header cost one map lookup.
 */
final class CandidateRoutes {

    private static final int[] NONE = new int[0];

    /** The list with no routes. */
    static final CandidateRoutes EMPTY = new CandidateRoutes(new Route[0], null, Map.of(), NONE);

    private final Route[] routes;
    /** The header routes are keyed by, or null when no route of the list demands an exact value. */
    private final String header;
    private final Map<String, int[]> byValue;
    private final int[] unkeyed;

    private CandidateRoutes(Route[] routes, String header, Map<String, int[]> byValue, int[] unkeyed) {
        this.routes = routes;
        this.header = header;
        this.byValue = byValue;
        this.unkeyed = unkeyed;
    }

    /** The list of {@code candidates}, ascending indexes into {@code routes}. */
    static CandidateRoutes of(Route[] routes, int[] candidates) {
        if (candidates.length == 0) {
            return EMPTY;
        }
        String header = mostDemandedHeader(routes, candidates);
        if (header == null) {
            return new CandidateRoutes(routes, null, Map.of(), candidates);
        }
        Map<String, List<Integer>> keyed = new HashMap<>();
        int[] unkeyed = new int[candidates.length];
        int unkeyedCount = 0;
        for (int candidate : candidates) {
            String value = exactValue(routes[candidate], header);
            if (value == null) {
                unkeyed[unkeyedCount++] = candidate;
            } else {
                keyed.computeIfAbsent(value, v -> new ArrayList<>()).add(candidate);
            }
        }
        Map<String, int[]> byValue = new HashMap<>(keyed.size() * 2);
        keyed.forEach((value, list) -> byValue.put(value, list.stream().mapToInt(Integer::intValue).toArray()));
        return new CandidateRoutes(routes, header, byValue, Arrays.copyOf(unkeyed, unkeyedCount));
    }

    /** Returns the first candidate below {@code best} that matches in full, else {@code best}. */
    int firstMatch(RouteRequest request, int best) {
        int[] keyed = NONE;
        if (header != null) {
            String value = request.header(header);
            if (value != null) {
                keyed = byValue.getOrDefault(value, NONE);
            }
        }
        int k = 0;
        int u = 0;
        while (true) {
            int fromKeyed = k < keyed.length ? keyed[k] : Integer.MAX_VALUE;
            int fromUnkeyed = u < unkeyed.length ? unkeyed[u] : Integer.MAX_VALUE;
            int candidate = Math.min(fromKeyed, fromUnkeyed);
            if (candidate >= best) {
                return best;
            }
            if (routes[candidate].matches(request)) {
                return candidate;
            }
            if (fromKeyed < fromUnkeyed) {
                k++;
            } else {
                u++;
            }
        }
    }

    /** The header most candidates demand an exact value of, or null when none demands one. */
    private static String mostDemandedHeader(Route[] routes, int[] candidates) {
        Map<String, Integer> demands = new HashMap<>();
        for (int candidate : candidates) {
            for (ValueMatcherConfig matcher : routes[candidate].config().match().headers()) {
                if (demandsExactly(matcher)) {
                    demands.merge(matcher.name(), 1, Integer::sum);
                }
            }
        }
        return demands.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
    }

    /** The value {@code route} demands of {@code header}, or null when it accepts other values too. */
    private static String exactValue(Route route, String header) {
        for (ValueMatcherConfig matcher : route.config().match().headers()) {
            if (demandsExactly(matcher) && matcher.name().equals(header)) {
                return matcher.exact().get();
            }
        }
        return null;
    }

    private static boolean demandsExactly(ValueMatcherConfig matcher) {
        return matcher.exact().isPresent() && !matcher.invert();
    }
}
