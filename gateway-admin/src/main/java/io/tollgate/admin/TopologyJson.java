package io.tollgate.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tollgate.core.config.SubsetLbConfig;
import io.tollgate.core.config.SubsetSelectorConfig;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.ClusterManager;
import io.tollgate.router.cluster.SubsetStats;
import io.tollgate.router.host.Host;
import java.util.List;
import java.util.Map;

/**
 * Renders the live clusters (each host's health and load, the subset selectors and how subset
 * load balancing resolved requests) and the bound listeners as JSON.
 */
final class TopologyJson {

    private TopologyJson() {
    }

    static ObjectNode clusters(ClusterManager manager) {
        ObjectNode root = AdminResponse.mapper().createObjectNode();
        ArrayNode clusters = root.putArray("clusters");
        for (Cluster cluster : manager.clusters()) {
            ObjectNode c = clusters.addObject();
            c.put("name", cluster.name());
            c.put("lb_policy", cluster.config().lbPolicy());
            ArrayNode hosts = c.putArray("hosts");
            for (Host host : cluster.hosts()) {
                host(hosts.addObject(), host);
            }
            cluster.config().subsetLbConfig().ifPresent(config -> subsets(c.putObject("subsets"), config,
                    cluster.subsetStats()));
        }
        return root;
    }

    /**
     * A host's address, weight, labels, health and load into {@code h}: requests in flight, open
     * connections, and the requests it finished and the errors among them since it was added.
     */
    static void host(ObjectNode h, Host host) {
        h.put("address", host.id());
        h.put("weight", host.weight());
        ObjectNode labels = h.putObject("labels");
        for (Map.Entry<String, String> label : host.labels().entrySet()) {
            labels.put(label.getKey(), label.getValue());
        }
        h.put("healthy", host.healthy());
        h.put("ejected", host.ejected());
        h.put("active_requests", host.activeRequests());
        h.put("cx_active", host.meters().connections());
        h.put("rq_total", host.meters().requests());
        h.put("rq_error_total", host.meters().errors());
    }

    private static void subsets(ObjectNode subsets, SubsetLbConfig config, SubsetStats stats) {
        subsets.put("fallback_policy", config.fallbackPolicy().name());
        ArrayNode selectors = subsets.putArray("selectors");
        for (SubsetSelectorConfig selector : config.selectors()) {
            ObjectNode s = selectors.addObject();
            ArrayNode keys = s.putArray("keys");
            selector.keys().forEach(keys::add);
            s.put("fallback_policy", selector.fallbackPolicy().name());
            if (!selector.fallbackKeysSubset().isEmpty()) {
                ArrayNode fallbackKeys = s.putArray("fallback_keys_subset");
                selector.fallbackKeysSubset().forEach(fallbackKeys::add);
            }
        }
        subsets.put("exact_matches", stats.exactMatches());
        subsets.put("keys_subset_fallbacks", stats.keysSubsetFallbacks());
        subsets.put("policy_fallbacks", stats.policyFallbacks());
        subsets.put("no_host", stats.noHost());
    }

    static ObjectNode listeners(List<ListenerInfo> listeners) {
        ObjectNode root = AdminResponse.mapper().createObjectNode();
        ArrayNode array = root.putArray("listeners");
        for (ListenerInfo listener : listeners) {
            ObjectNode l = array.addObject();
            l.put("name", listener.name());
            l.put("address", listener.address());
            l.put("port", listener.port());
            ArrayNode protocols = l.putArray("protocols");
            listener.protocols().forEach(protocols::add);
        }
        return root;
    }
}
