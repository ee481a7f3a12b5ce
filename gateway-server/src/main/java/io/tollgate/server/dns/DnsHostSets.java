package io.tollgate.server.dns;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.DnsConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.host.LogicalAddress;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a round of answers into a DNS cluster's hosts, on the control thread, through the
 * cluster's incremental update as an xDS endpoint push does: hosts whose address stays keep their
 * health, ejection, load and pooled connections; only added and removed ones cost anything.
 */
final class DnsHostSets {

    /** What a round of answers changed. */
    enum Change {
        /** Nothing: the same addresses. */
        NONE,
        /** The {@code logical_dns} host connects elsewhere from now on; the host set is the same. */
        MOVED,
        /** Hosts were added or removed. */
        HOSTS
    }

    private DnsHostSets() {
    }

    /**
     * Applies {@code answers} (by name) to {@code cluster}, declared as {@code declared}, and says
     * what changed.
     */
    static Change apply(Cluster cluster, ClusterConfig declared, Map<String, DnsAnswer> answers) {
        if (declared.dns().orElseThrow().type() == DnsConfig.Type.LOGICAL) {
            return applyLogical(cluster, declared.endpoints().get(0), answers.get(declared.endpoints().get(0).address()));
        }
        return applyStrict(cluster, strictEndpoints(declared.endpoints(), answers));
    }

    /**
     * Every address of every name as a host with its endpoint's port, weight and labels, in the
     * order declared; an address two names share (at the same port) is one host, the first.
     */
    static List<EndpointConfig> strictEndpoints(List<EndpointConfig> declared, Map<String, DnsAnswer> answers) {
        List<EndpointConfig> endpoints = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (EndpointConfig endpoint : declared) {
            DnsAnswer answer = answers.get(endpoint.address());
            if (answer == null) {
                continue;
            }
            for (InetAddress address : answer.addresses()) {
                String literal = address.getHostAddress();
                if (seen.add(literal + ":" + endpoint.port())) {
                    endpoints.add(new EndpointConfig(literal, endpoint.port(), endpoint.weight(), endpoint.labels()));
                }
            }
        }
        return endpoints;
    }

    /** Republishes only when the set of hosts differs, reusing the endpoint objects of hosts that stay. */
    private static Change applyStrict(Cluster cluster, List<EndpointConfig> resolved) {
        List<EndpointConfig> current = cluster.config().endpoints();
        if (new HashSet<>(current).equals(new HashSet<>(resolved))) {
            return Change.NONE;
        }
        Map<EndpointConfig, EndpointConfig> applied = new HashMap<>();
        current.forEach(e -> applied.put(e, e));
        List<EndpointConfig> next = new ArrayList<>(resolved.size());
        resolved.forEach(e -> next.add(applied.getOrDefault(e, e)));
        cluster.replaceEndpoints(next);
        return Change.HOSTS;
    }

    /**
     * Points the host at the answer's first address, adding the host with the first answer (or
     * replacing the host of the name a reload replaced).
     */
    private static Change applyLogical(Cluster cluster, EndpointConfig endpoint, DnsAnswer answer) {
        if (answer == null || answer.addresses().isEmpty()) {
            return Change.NONE;
        }
        LogicalAddress logical = cluster.logicalAddress();
        boolean moved = logical.set(answer.addresses().get(0), endpoint.port());
        if (cluster.config().endpoints().equals(List.of(endpoint))) {
            return moved ? Change.MOVED : Change.NONE;
        }
        // the first answer, or one for a name a reload put in place of the host's
        cluster.replaceEndpoints(List.of(endpoint));
        return Change.HOSTS;
    }
}
