package io.tollgate.router.route;

import io.tollgate.core.config.read.ConfigLoader;

/** Compiles route tables from YAML through the real loader, as the gateway does. */
final class RouteTables {

    private RouteTables() {
    }

    /** A table of the given virtual hosts (a YAML flow list); clusters a, b and c exist. */
    static RouteTable of(String virtualHosts) {
        String yaml = """
                listeners:
                  - name: l
                    route_config:
                      virtual_hosts: %s
                clusters: [{ name: a, endpoints: [] }, { name: b, endpoints: [] }, { name: c, endpoints: [] }]
                """.formatted(virtualHosts.replace("\n", "\n          "));
        return RouteTable.compile(ConfigLoader.parse(yaml).listeners().get(0).routeConfig());
    }

    /** A table with one virtual host for every domain, holding the given routes (a YAML flow list). */
    static RouteTable ofRoutes(String routes) {
        return of("[{ name: vh, domains: [\"*\"], routes: " + routes + " }]");
    }
}
