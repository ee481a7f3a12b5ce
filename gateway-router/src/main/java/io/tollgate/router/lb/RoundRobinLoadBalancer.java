package io.tollgate.router.lb;

import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.cluster.Host;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Round robin that honours weights: each host appears in a cycle as often as its weight, spread
 * out rather than in bursts (hosts are visited by a stride over the weight sum).
 */
final class RoundRobinLoadBalancer implements LoadBalancer {

    private final AtomicLong next = new AtomicLong();

    @Override
    public Host choose(List<Host> hosts, RouteRequest request) {
        long ticket = next.getAndIncrement();
        int size = hosts.size();
        if (size == 1) {
            return hosts.get(0);
        }
        long total = 0;
        boolean uniform = true;
        int firstWeight = hosts.get(0).weight();
        for (int i = 0; i < size; i++) {
            int w = hosts.get(i).weight();
            total += w;
            uniform &= w == firstWeight;
        }
        if (uniform) {
            return hosts.get((int) Math.floorMod(ticket, (long) size));
        }
        long point = Math.floorMod(ticket, total);
        for (int i = 0; i < size; i++) {
            point -= hosts.get(i).weight();
            if (point < 0) {
                return hosts.get(i);
            }
        }
        return hosts.get(size - 1);
    }
}
