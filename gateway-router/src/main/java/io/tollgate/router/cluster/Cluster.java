package io.tollgate.router.cluster;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.route.RouteRequest;
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
     * Chooses a healthy host for a request, or returns null when the cluster has none; with no
     * healthy host at all the caller answers 503 (no healthy upstream).
     */
    public Host choose(RouteRequest request) {
        List<Host> candidates = hosts;
        for (Host host : hosts) {
            if (!host.healthy()) {
                candidates = healthyHosts();
                break;
            }
        }
        return candidates.isEmpty() ? null : loadBalancer.choose(candidates, request);
    }

    private List<Host> healthyHosts() {
        List<Host> healthy = new ArrayList<>(hosts.size());
        for (Host host : hosts) {
            if (host.healthy()) {
                healthy.add(host);
            }
        }
        return healthy;
    }
}
