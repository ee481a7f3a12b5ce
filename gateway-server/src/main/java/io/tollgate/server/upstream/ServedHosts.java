package io.tollgate.server.upstream;

import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.ClusterManager;
import io.tollgate.router.cluster.Host;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Which (cluster, host address) pairs a snapshot's clusters still serve, so that after a reload
 * every event loop can retire the upstream pools of clusters and hosts that left. A cluster is
 * known by object, not by name: a cluster rebuilt under the same name is another cluster.
 * Confined to the thread that asks; each cluster's addresses are gathered on first question.
 */
public final class ServedHosts {

    private final ClusterManager clusters;
    private final Map<Cluster, Set<InetSocketAddress>> addresses = new IdentityHashMap<>();

    public ServedHosts(ClusterManager clusters) {
        this.clusters = clusters;
    }

    /** Whether {@code cluster} is still one of the clusters and still has a host at {@code address}. */
    public boolean serves(Cluster cluster, InetSocketAddress address) {
        if (clusters.cluster(cluster.name()) != cluster) {
            return false;
        }
        return addresses.computeIfAbsent(cluster, ServedHosts::addressesOf).contains(address);
    }

    private static Set<InetSocketAddress> addressesOf(Cluster cluster) {
        Set<InetSocketAddress> set = new HashSet<>();
        for (Host host : cluster.hosts()) {
            set.add(host.address());
        }
        return set;
    }
}
