package io.tollgate.router.lb;

import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.cluster.Host;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Round robin that honours weights: in every cycle of (sum of weights) requests each host is
 * chosen exactly as often as its weight, and a heavy host's turns are spread through the cycle
 * rather than taken in one burst. Turn {@code t} of a cycle of length {@code n} lands on the point
 * {@code t * stride mod n}, where the stride, coprime with {@code n} and near the golden ratio of
 * it, makes this a permutation that keeps neighbouring turns far apart.
 */
final class RoundRobinLoadBalancer implements LoadBalancer {

    private static final double GOLDEN_RATIO_FRACTION = 0.6180339887498949;

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
        long point = spread(Math.floorMod(ticket, total), total);
        for (int i = 0; i < size; i++) {
            point -= hosts.get(i).weight();
            if (point < 0) {
                return hosts.get(i);
            }
        }
        return hosts.get(size - 1);
    }

    /** Maps turn {@code turn} of a cycle of {@code total} to a distinct point of the cycle. */
    private static long spread(long turn, long total) {
        if (total > Integer.MAX_VALUE) {
            return turn; // the product below could overflow; turns stay exact, only less spread
        }
        long stride = Math.max(1, (long) (total * GOLDEN_RATIO_FRACTION));
        while (gcd(stride, total) != 1) {
            stride++;
        }
        return turn * stride % total;
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long r = a % b;
            a = b;
            b = r;
        }
        return a;
    }
}
