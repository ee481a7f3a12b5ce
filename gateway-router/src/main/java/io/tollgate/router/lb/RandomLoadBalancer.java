package io.tollgate.router.lb;

import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.cluster.Host;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** Picks a host at random in proportion to its weight. */
final class RandomLoadBalancer implements LoadBalancer {

    @Override
    public Host choose(List<Host> hosts, RouteRequest request) {
        int size = hosts.size();
        long total = 0;
        for (int i = 0; i < size; i++) {
            total += hosts.get(i).weight();
        }
        long point = ThreadLocalRandom.current().nextLong(total);
        for (int i = 0; i < size; i++) {
            point -= hosts.get(i).weight();
            if (point < 0) {
                return hosts.get(i);
            }
        }
        return hosts.get(size - 1);
    }
}
