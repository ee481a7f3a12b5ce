package io.tollgate.router.lb;

import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.host.Host;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;

/**
 * Round robin that honours weights: in every cycle of (sum of weights) requests each host is
 * chosen exactly as often as its weight, and a heavy host's turns are spread through the cycle
 * rather than taken in one burst. Turn {@code t} of a cycle of length {@code n} lands on the point
 * {@code t * stride mod n}, where the stride, coprime with {@code n} and near the golden ratio of
 * it, makes this a permutation that keeps neighbouring turns far apart; the stride is kept with
 * the candidates ({@link Candidates#derived}), so a choice costs no search for it. With slow start, a new
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
    /** One function object for the life of the balancer: {@link Candidates#derived} compares it by identity. */
    private final Function<Candidates, Long> strideOf = candidates -> stride(candidates.totalWeight());

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
        long stride = candidates.derived(strideOf);
        return candidates.hostAtWeight(Math.floorMod(ticket, total) * stride % total);
    }

    private static int nextPowerOfTwo(int n) {
        return Integer.highestOneBit(n * 2 - 1);
    }

    /**
     * The step that maps turn {@code t} of a cycle of {@code total} to the distinct point {@code t *
     * stride mod total}; computed once per candidates. Past {@code Integer.MAX_VALUE} the product
     * could overflow, so turns stay in order (still exact, only less spread).
     */
    private static long stride(long total) {
        if (total > Integer.MAX_VALUE) {
            return 1;
        }
        long stride = Math.max(1, (long) (total * GOLDEN_RATIO_FRACTION));
        while (gcd(stride, total) != 1) {
            stride++;
        }
        return stride;
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
