package io.tollgate.router.route;

import io.tollgate.core.config.VirtualHostConfig;
import io.tollgate.core.route.RouteRequest;
import java.util.List;

/** A compiled virtual host: its routes, of which the first that matches a request wins. */
final class VirtualHost {

    private final String name;
    private final Route[] routes;
    private final RouteIndex index;

    VirtualHost(VirtualHostConfig config) {
        this.name = config.name();
        this.routes = new Route[config.routes().size()];
        for (int i = 0; i < routes.length; i++) {
            routes[i] = new Route(name, i, config.routes().get(i));
        }
        this.index = new RouteIndex(routes);
    }

    String name() {
        return name;
    }

    List<Route> routes() {
        return List.of(routes);
    }

    Route route(RouteRequest request) {
        return index.first(request);
    }
}
