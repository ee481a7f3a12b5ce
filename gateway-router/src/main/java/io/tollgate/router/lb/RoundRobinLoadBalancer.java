package io.tollgate.router.lb;

import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.cluster.Host;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Round robin that honours weights: in every cycle of (sum of weights) requests each host is
 * chosen exactly as often as its weight, and a heavy host's turns are spread through the cycle
 * rather than taken in one burst. Turn {@code t} of a cycle of length {@code n} lands on the point
 * {@code t * stride mod n}, where the stride, coprime with {@code n} and near the golden ratio of
 * it, makes this a permutation that keeps neighbouring turns far apart. With slow start, a new
 * host's turns are kept only in proportion to its ramp.
 *
 * <p>Each thread (each event loop) keeps its own turn counter, on a cache line of its own, so that
 * loops choosing at once do not contend for one counter; every loop's sequence is a whole weighted
 * round robin of its own. Threads get counters in the order they first choose; past {@link
 * #CURSORS} threads, they share them (still correct, only contended).
 */
final class RoundRobinLoadBalancer implements LoadBalancer {

    private static final double GOLDEN_RATIO_FRACTION = 0.6180339887498949;
    /** Turn counters per balancer: a power of two, enough for the event loops of a few times the cores. */
    private static final int CURSORS = nextPowerOfTwo(Math.max(8, 4 * Runtime.getRuntime().availableProcessors()));
    /** Longs between two counters: 128 bytes, so that neither a counter's line nor the adjacent one is shared. */
    private static final int SPACING = 16;
    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final ThreadLocal<Integer> CURSOR = ThreadLocal.withInitial(
            () -> ((THREADS.getAndIncrement() & (CURSORS - 1)) + 1) * SPACING);

    /** Counter {@code i} at index {@code (i + 1) * SPACING}, so that none shares a line with the array header. */
    private final AtomicLongArray next = new AtomicLongArray((CURSORS + 1) * SPACING);
    private final SlowStart slowStart;
    private final SlowStart.Draw draw = this::draw;

    /** {@code slowStart} may be null: no ramp. */
    RoundRobinLoadBalancer(SlowStart slowStart) {
        this.slowStart = slowStart;
    }

    @Override
    public Host choose(Candidates candidates, RouteRequest request) {
        return slowStart == null ? draw(candidates) : slowStart.choose(candidates, draw);
    }

    private Host draw(Candidates candidates) {
        long ticket = next.getAndIncrement(CURSOR.get());
        if (candidates.uniformWeights()) {
            return candidates.host((int) Math.floorMod(ticket, (long) candidates.size()));
        }
        long total = candidates.totalWeight();
        return candidates.hostAtWeight(spread(Math.floorMod(ticket, total), total));
    }

    private static int nextPowerOfTwo(int n) {
        return Integer.highestOneBit(n * 2 - 1);
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
