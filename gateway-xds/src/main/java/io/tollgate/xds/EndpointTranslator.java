package io.tollgate.xds;

import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.tollgate.core.config.EndpointConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a {@code ClusterLoadAssignment} into the gateway's endpoints: address, port, weight and
 * the subset labels of the {@code envoy.lb} filter metadata. Endpoints the control plane marks
 * unhealthy, draining, timed out or degraded are left out, as Envoy leaves them out of load
 * balancing.
 *
 * <p>A push may carry tens of thousands of endpoints, so they go straight into
 * {@link EndpointConfig} records, which check the file's ranges themselves, instead of through
 * the file's tree; addresses must be unique as in the file.
 */
final class EndpointTranslator {

    private static final Set<HealthStatus> SERVING = Set.of(HealthStatus.UNKNOWN, HealthStatus.HEALTHY);
    private static final Set<String> ASSIGNMENT_FIELDS = Set.of("cluster_name", "endpoints");
    private static final Set<String> LOCALITY_FIELDS = Set.of("locality", "lb_endpoints");
    private static final Set<String> LB_ENDPOINT_FIELDS = Set.of("endpoint", "load_balancing_weight", "metadata",
            "health_status");
    private static final Set<String> ENDPOINT_FIELDS = Set.of("address");

    private EndpointTranslator() {
    }

    /** The endpoints of an EDS response. */
    static List<EndpointConfig> translate(ClusterLoadAssignment assignment) {
        return endpoints(assignment, "ClusterLoadAssignment '" + assignment.getClusterName() + "'");
    }

    /** The endpoints of {@code assignment}, which {@code at} names in errors. */
    static List<EndpointConfig> endpoints(ClusterLoadAssignment assignment, String at) {
        Fields.allowOnly(assignment, at, ASSIGNMENT_FIELDS);
        List<EndpointConfig> endpoints = new ArrayList<>();
        Map<String, String> seen = new HashMap<>();
        for (int l = 0; l < assignment.getEndpointsCount(); l++) {
            LocalityLbEndpoints locality = assignment.getEndpoints(l);
            String where = at + ".endpoints[" + l + "]";
            Fields.allowOnly(locality, where, LOCALITY_FIELDS);
            for (int e = 0; e < locality.getLbEndpointsCount(); e++) {
                LbEndpoint endpoint = locality.getLbEndpoints(e);
                Fields.allowOnly(endpoint, where + ".lb_endpoints[" + e + "]", LB_ENDPOINT_FIELDS);
                if (!SERVING.contains(endpoint.getHealthStatus())) {
                    continue;
                }
                String here = where + ".lb_endpoints[" + e + "]";
                Fields.allowOnly(endpoint.getEndpoint(), here + ".endpoint", ENDPOINT_FIELDS);
                SocketAddress socket = ListenerTranslator.socketAddress(endpoint.getEndpoint().getAddress(),
                        here + ".endpoint.address");
                Map<String, String> labels = endpoint.hasMetadata()
                        ? SubsetTranslator.labels(endpoint.getMetadata(), here + ".metadata") : Map.of();
                int weight = endpoint.hasLoadBalancingWeight() ? endpoint.getLoadBalancingWeight().getValue() : 1;
                try {
                    endpoints.add(new EndpointConfig(socket.getAddress(), socket.getPortValue(), weight, labels));
                } catch (IllegalArgumentException ex) {
                    throw new XdsRejection(here + ": " + ex.getMessage());
                }
                String key = socket.getAddress() + ":" + socket.getPortValue();
                String first = seen.putIfAbsent(key, here);
                if (first != null) {
                    throw new XdsRejection(here + ": address:port '" + key + "' is already used by " + first
                            + " (expected each address:port once)");
                }
            }
        }
        return endpoints;
    }
}
