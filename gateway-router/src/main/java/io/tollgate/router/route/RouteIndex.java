package io.tollgate.router.route;

import io.tollgate.core.route.RouteRequest;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Finds the first route of a virtual host that matches a request without trying every route.
 *
 * <p>Only routes whose path condition holds can match: those with exactly the request's path (a
 * map), those whose prefix the path starts with (found walking a {@link PrefixTrie} along the
 * path) and every regex route. Each of these candidate lists is in route order, and a list is
 * read only up to the best route found so far, so the answer is the lowest-numbered route that
 * matches in full: first match wins, exactly as an ordered scan would decide. With path and
 * prefix routes the cost follows the path's length, not the number of routes; header, query and
 * regex conditions are checked only on candidates, and within a list the routes that demand an
 * exact header value are found by that value ({@link CandidateRoutes}).
 */
final class RouteIndex {

    private final Route[] routes;
    private final Map<String, CandidateRoutes> exact = new HashMap<>();
    private final PrefixTrie prefixes = new PrefixTrie();
    private final CandidateRoutes regexes;

    RouteIndex(Route[] routes) {
        this.routes = routes;
        Map<String, int[]> exactRoutes = new HashMap<>();
        int[] regexRoutes = new int[routes.length];
        int regexCount = 0;
        for (int i = 0; i < routes.length; i++) {
            Route route = routes[i];
            if (route.exactPath() != null) {
                exactRoutes.merge(route.exactPath(), new int[] {i}, RouteIndex::concat);
            } else if (route.prefix() != null) {
                prefixes.add(route.prefix(), i);
            } else {
                regexRoutes[regexCount++] = i;
            }
        }
        exactRoutes.forEach((path, candidates) -> exact.put(path, CandidateRoutes.of(routes, candidates)));
        prefixes.index(routes);
        this.regexes = CandidateRoutes.of(routes, Arrays.copyOf(regexRoutes, regexCount));
    }

    /** Returns the first route, in configuration order, that matches the request, or null. */
    Route first(RouteRequest request) {
        String path = request.path();
        int best = exact.getOrDefault(path, CandidateRoutes.EMPTY).firstMatch(request, routes.length);
        PrefixTrie node = prefixes;
        for (int i = 0; i < path.length(); i++) {
            node = node.child(path.charAt(i));
            if (node == null) {
                break;
            }
            best = node.candidates().firstMatch(request, best);
        }
        best = regexes.firstMatch(request, best);
        return best == routes.length ? null : routes[best];
    }

    private static int[] concat(int[] first, int[] second) {
        int[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
