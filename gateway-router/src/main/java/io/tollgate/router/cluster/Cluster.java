package io.tollgate.router.cluster;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.health.PanicThreshold;
import io.tollgate.router.lb.LoadBalancer;
import io.tollgate.router.lb.LoadBalancers;
import java.util.ArrayList;
import java.util.List;

/** A named set of upstream hosts with the load balancer that spreads requests over them. */
public final class Cluster {

    private final ClusterConfig config;
    private final List<Host> hosts;
    private final LoadBalancer loadBalancer;

    public Cluster(ClusterConfig config) {
        this.config = config;
        this.hosts = config.endpoints().stream().map(Host::new).toList();
        this.loadBalancer = LoadBalancers.create(config.lbPolicy());
    }

    public String name() {
        return config.name();
    }

    public ClusterConfig config() {
        return config;
    }

    /** Every host, healthy or not. */
    public List<Host> hosts() {
        return hosts;
    }

    /**
     * Chooses an available host for a request, or returns null when the cluster has none; with no
     * available host at all the caller answers 503 (no healthy upstream). When too few hosts are
     * available (below the panic threshold), every host is a candidate.
     */
    public Host choose(RouteRequest request) {
        int available = 0;
        for (Host host : hosts) {
            if (host.available()) {
                available++;
            }
        }
        if (available == 0) {
            return null;
        }
        boolean all = available == hosts.size() || PanicThreshold.panics(available, hosts.size(), config.panicThresholdPercent());
        return loadBalancer.choose(all ? hosts : availableHosts(available), request);
    }

    private List<Host> availableHosts(int count) {
        List<Host> available = new ArrayList<>(count);
        for (Host host : hosts) {
            if (host.available()) {
                available.add(host);
            }
        }
        return available;
    }
}
