package io.tollgate.router.lb;

import io.tollgate.core.config.EndpointConfig;
import io.tollgate.router.cluster.HostSet;
import io.tollgate.router.host.Host;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builds hosts on 127.0.0.1 with the given weights, numbered by port 1, 2, 3 ... */
final class Hosts {

    private Hosts() {
    }

    static List<Host> weighted(int... weights) {
        List<Host> hosts = new ArrayList<>(weights.length);
        for (int i = 0; i < weights.length; i++) {
            hosts.add(new Host(new EndpointConfig("127.0.0.1", i + 1, weights[i], Map.of())));
        }
        return List.copyOf(hosts);
    }

    /** How often each host is chosen in {@code draws} calls, by host position. */
    static int[] counts(LoadBalancer balancer, List<Host> hosts, int draws) {
        int[] counts = new int[hosts.size()];
        for (int i = 0; i < draws; i++) {
            counts[hosts.indexOf(balancer.choose(HostSet.of(hosts).healthy(), null))]++;
        }
        return counts;
    }

    /** The share of each host in {@code counts}. */
    static double[] shares(int[] counts) {
        long total = 0;
        for (int count : counts) {
            total += count;
        }
        double[] shares = new double[counts.length];
        for (int i = 0; i < counts.length; i++) {
            shares[i] = (double) counts[i] / total;
        }
        return shares;
    }
}
