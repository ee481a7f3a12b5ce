package io.tollgate.admin.series;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.ClusterManager;
import io.tollgate.router.host.Host;
import io.tollgate.router.host.HostMeters;
import java.util.Map;

/**
 * Reads each host's meters once a second, on the admin thread, and adds the host's figures of that
 * second to its cluster in a sample's breakdown: requests and errors per second, open connections
 * and requests in flight. A host that did nothing in that second and holds no connection is left
 * out, so that a cluster of thousands of idle providers costs the stream nothing.
 */
public final class HostSampler {

    private static final String SEP = "\u0000";

    private final Deltas requests = new Deltas();
    private final Deltas errors = new Deltas();

    /** Adds {@code hosts} under each cluster of {@code clusters} (the breakdown's {@code clusters}) it has figures for. */
    public void sample(ClusterManager manager, ObjectNode clusters) {
        for (Cluster cluster : manager.clusters()) {
            for (Host host : cluster.hosts()) {
                String key = cluster.name() + SEP + host.id();
                requests.add(key, host.meters().requests());
                errors.add(key, host.meters().errors());
            }
        }
        Map<String, Double> rq = requests.endRound();
        Map<String, Double> failed = errors.endRound();
        for (Cluster cluster : manager.clusters()) {
            ObjectNode hosts = null;
            for (Host host : cluster.hosts()) {
                String key = cluster.name() + SEP + host.id();
                HostMeters meters = host.meters();
                double rate = rq.getOrDefault(key, 0.0);
                double errorRate = failed.getOrDefault(key, 0.0);
                long connections = meters.connections();
                int active = host.activeRequests();
                if (rate == 0 && errorRate == 0 && connections == 0 && active == 0) {
                    continue;
                }
                if (hosts == null) {
                    ObjectNode json = clusters.has(cluster.name()) ? (ObjectNode) clusters.get(cluster.name())
                            : clusters.putObject(cluster.name());
                    hosts = json.putObject("hosts");
                }
                ObjectNode h = hosts.putObject(host.id());
                Sample.put(h, "rq", rate);
                Sample.put(h, "rq_error", errorRate);
                h.put("cx_active", connections);
                h.put("active_requests", active);
            }
        }
    }
}
