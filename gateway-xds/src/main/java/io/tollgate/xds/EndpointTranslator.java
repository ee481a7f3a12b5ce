package io.tollgate.xds;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.ConfigLoader;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import java.util.List;
import java.util.Set;

/**
 * Turns a {@code ClusterLoadAssignment} into the gateway's endpoints: address, port, weight and
 * the subset labels of the {@code envoy.lb} filter metadata. Endpoints the control plane marks
 * unhealthy, draining or timed out are left out, as Envoy leaves them out of load balancing.
 */
final class EndpointTranslator {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Set<HealthStatus> SERVING = Set.of(HealthStatus.UNKNOWN, HealthStatus.HEALTHY);

    private EndpointTranslator() {
    }

    /** The endpoints of an EDS response, checked by the file's rules for a cluster's endpoints. */
    static List<EndpointConfig> translate(ClusterLoadAssignment assignment, ExtensionRegistry extensions) {
        String at = "ClusterLoadAssignment '" + assignment.getClusterName() + "'";
        ObjectNode cluster = NODES.objectNode().put("name", assignment.getClusterName());
        cluster.set("endpoints", endpoints(assignment, at));
        try {
            return ConfigLoader.cluster(cluster, "", extensions).endpoints();
        } catch (ConfigException | IllegalArgumentException e) {
            throw new XdsRejection(at + ": " + e.getMessage());
        }
    }

    /** The endpoints of {@code assignment} as the configuration file lists them. */
    static ArrayNode endpoints(ClusterLoadAssignment assignment, String at) {
        Fields.allowOnly(assignment, at, Set.of("cluster_name", "endpoints"));
        ArrayNode list = NODES.arrayNode();
        for (int l = 0; l < assignment.getEndpointsCount(); l++) {
            LocalityLbEndpoints locality = assignment.getEndpoints(l);
            String where = at + ".endpoints[" + l + "]";
            Fields.allowOnly(locality, where, Set.of("locality", "lb_endpoints"));
            for (int e = 0; e < locality.getLbEndpointsCount(); e++) {
                LbEndpoint endpoint = locality.getLbEndpoints(e);
                String here = where + ".lb_endpoints[" + e + "]";
                Fields.allowOnly(endpoint, here, Set.of("endpoint", "load_balancing_weight", "metadata", "health_status"));
                if (!SERVING.contains(endpoint.getHealthStatus())) {
                    continue;
                }
                Fields.allowOnly(endpoint.getEndpoint(), here + ".endpoint", Set.of("address"));
                SocketAddress socket = ListenerTranslator.socketAddress(endpoint.getEndpoint().getAddress(),
                        here + ".endpoint.address");
                ObjectNode host = list.addObject().put("address", socket.getAddress()).put("port", socket.getPortValue());
                if (endpoint.hasLoadBalancingWeight()) {
                    host.put("weight", endpoint.getLoadBalancingWeight().getValue());
                }
                if (endpoint.hasMetadata()) {
                    host.set("labels", SubsetTranslator.lbMetadata(endpoint.getMetadata(), here + ".metadata"));
                }
            }
        }
        return list;
    }
}
