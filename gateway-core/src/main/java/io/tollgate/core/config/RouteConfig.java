package io.tollgate.core.config;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The virtual hosts of one listener, tried by domain as Envoy's route configuration does. */
public record RouteConfig(List<VirtualHostConfig> virtualHosts) {

    public RouteConfig {
        virtualHosts = List.copyOf(virtualHosts);
        Map<String, Integer> owners = new HashMap<>();
        for (int i = 0; i < virtualHosts.size(); i++) {
            List<String> domains = virtualHosts.get(i).domains();
            for (int d = 0; d < domains.size(); d++) {
                Integer owner = owners.putIfAbsent(domains.get(d), i);
                if (owner != null) {
                    throw new InvalidFieldException("virtual_hosts[" + i + "].domains[" + d + "]", "domain '"
                            + domains.get(d) + "' is already served by virtual_hosts[" + owner
                            + "] (expected each domain once)");
                }
            }
        }
    }
}
