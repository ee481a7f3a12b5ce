package io.tollgate.router.lb;

import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.host.Host;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Power of two choices: of two hosts drawn at random, the one with fewer active requests
 * relative to its weight. Cheap, and avoids the herd that a global minimum attracts. With slow
 * start, a new host's wins are kept only in proportion to its ramp. Loads and weights are read by
 * rank from the candidates, so only the winner's host object is touched.
 */
final class LeastRequestLoadBalancer implements LoadBalancer {

    private final SlowStart slowStart;
    private final SlowStart.Draw draw = this::draw;

    /** {@code slowStart} may be null: no ramp. */
    LeastRequestLoadBalancer(SlowStart slowStart) {
        this.slowStart = slowStart;
    }

    @Override
    public Host choose(Candidates candidates, RouteRequest request) {
        return slowStart == null ? draw(candidates) : slowStart.choose(candidates, draw);
    }

    private Host draw(Candidates candidates) {
        int size = candidates.size();
        if (size == 1) {
            return candidates.host(0);
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int a = random.nextInt(size);
        int b = random.nextInt(size);
        int activeA = candidates.activeRequests(a);
        int activeB = candidates.activeRequests(b);
        if (candidates.uniformWeights()) {
            return candidates.host(activeA <= activeB ? a : b);
        }
        long loadA = (long) (activeA + 1) * candidates.weight(b);
        long loadB = (long) (activeB + 1) * candidates.weight(a);
        return candidates.host(loadA <= loadB ? a : b);
    }
}
