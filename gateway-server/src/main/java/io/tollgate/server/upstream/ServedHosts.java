package io.tollgate.server.upstream;

import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.ClusterManager;
import io.tollgate.router.host.Host;

/**
 * Which clusters and hosts a snapshot's clusters still serve, so that after a reload every event
 * loop can retire the upstream pools of clusters and hosts that left. A cluster is known by
 * object, not by name: a cluster rebuilt under the same name is another cluster. Each question
 * costs constant time, whatever the size of the cluster: a push into a cluster of many hosts costs
 * an event loop only a look at each of its pools.
 */
public final class ServedHosts {

    private final ClusterManager clusters;

    public ServedHosts(ClusterManager clusters) {
        this.clusters = clusters;
    }

    /** Whether {@code cluster} is still one of the clusters and still has a host at the address of its {@code host}. */
    public boolean serves(Cluster cluster, Host host) {
        return clusters.cluster(cluster.name()) == cluster && cluster.stillServes(host);
    }
}
