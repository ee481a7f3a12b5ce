package io.tollgate.core.config;

import java.util.List;

/** The virtual hosts of one listener, tried by domain as Envoy's route configuration does. */
public record RouteConfig(List<VirtualHostConfig> virtualHosts) {

    public RouteConfig {
        virtualHosts = List.copyOf(virtualHosts);
    }
}
