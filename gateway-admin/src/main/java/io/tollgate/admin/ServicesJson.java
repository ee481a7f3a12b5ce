package io.tollgate.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tollgate.discovery.RegistryStatus;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.ClusterManager;
import io.tollgate.router.host.Host;
import java.util.List;

/** Renders {@code /services}: each registry's state, and each discovered service with its providers as hosts. */
final class ServicesJson {

    private ServicesJson() {
    }

    static ObjectNode of(List<RegistryStatus> registries, List<DiscoveredService> services, ClusterManager clusters) {
        ObjectNode root = AdminResponse.mapper().createObjectNode();
        root.set("registries", ConfigJson.of(registries));
        ArrayNode array = root.putArray("services");
        for (DiscoveredService service : services) {
            ObjectNode s = array.addObject();
            s.put("service", service.service());
            s.put("kind", service.kind());
            s.put("registry", service.registry());
            s.put("cluster", service.cluster());
            s.set("methods", ConfigJson.of(service.methods()));
            ArrayNode providers = s.putArray("providers");
            Cluster cluster = clusters.cluster(service.cluster());
            if (cluster != null) {
                for (Host host : cluster.hosts()) {
                    TopologyJson.host(providers.addObject(), host);
                }
            }
        }
        return root;
    }
}
