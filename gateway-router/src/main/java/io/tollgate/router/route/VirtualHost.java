package io.tollgate.router.route;

import io.tollgate.core.config.VirtualHostConfig;
import io.tollgate.core.route.RouteRequest;
import java.util.List;

/** A compiled virtual host: its routes, tried in order. */
final class VirtualHost {

    private final String name;
    private final Route[] routes;

    VirtualHost(VirtualHostConfig config) {
        this.name = config.name();
        this.routes = new Route[config.routes().size()];
        for (int i = 0; i < routes.length; i++) {
            routes[i] = new Route(name, i, config.routes().get(i));
        }
    }

    String name() {
        return name;
    }

    List<Route> routes() {
        return List.of(routes);
    }

    Route route(RouteRequest request) {
        for (Route route : routes) {
            if (route.matches(request)) {
                return route;
            }
        }
        return null;
    }
}
