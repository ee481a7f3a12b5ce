package io.tollgate.router.lb;

import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.host.Host;
import java.util.concurrent.ThreadLocalRandom;

/** Picks a host at random in proportion to its weight. */
final class RandomLoadBalancer implements LoadBalancer {

    @Override
    public Host choose(Candidates candidates, RouteRequest request) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        if (candidates.uniformWeights()) {
            return candidates.host(random.nextInt(candidates.size()));
        }
        return candidates.hostAtWeight(random.nextLong(candidates.totalWeight()));
    }
}
