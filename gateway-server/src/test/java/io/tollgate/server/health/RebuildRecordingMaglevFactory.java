package io.tollgate.server.health;

import io.tollgate.core.config.LoadBalancingConfig;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.host.Host;
import io.tollgate.router.lb.Candidates;
import io.tollgate.router.lb.HashPolicy;
import io.tollgate.router.lb.LoadBalancer;
import io.tollgate.router.lb.LoadBalancerFactory;
import io.tollgate.router.lb.LoadBalancers;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.LongSupplier;

/**
 * {@code lb_policy: recording_maglev}, a test extension: {@code maglev} with a table of a million
 * entries, whose rebuilds (the cluster publishing a version) note the thread they ran on and the
 * number of hosts they were for, so a test can tell that no rebuild ran on an event loop.
 */
public final class RebuildRecordingMaglevFactory implements LoadBalancerFactory {

    /** Large enough that a rebuild takes noticeable time. */
    static final int TABLE_SIZE = 1_000_003;

    private static final Queue<Rebuild> REBUILDS = new ConcurrentLinkedQueue<>();

    /** One table built: on thread {@code thread}, for {@code hosts} candidates. */
    record Rebuild(String thread, int hosts) {
    }

    @Override
    public String name() {
        return "recording_maglev";
    }

    /** The rebuilds since the last call, in order. */
    static List<Rebuild> drainRebuilds() {
        List<Rebuild> rebuilds = List.copyOf(REBUILDS);
        REBUILDS.removeAll(rebuilds);
        return rebuilds;
    }

    @Override
    public LoadBalancer create(LoadBalancingConfig settings, LongSupplier nanoClock) {
        LoadBalancer maglev = LoadBalancers.create("maglev", settings.withMaglevTableSize(TABLE_SIZE), nanoClock);
        return new LoadBalancer() {
            @Override
            public Host choose(Candidates candidates, RouteRequest request) {
                return maglev.choose(candidates, request);
            }

            @Override
            public Host choose(Candidates candidates, RouteRequest request, HashPolicy routeHashPolicy) {
                return maglev.choose(candidates, request, routeHashPolicy);
            }

            @Override
            public void prepare(Candidates candidates) {
                REBUILDS.add(new Rebuild(Thread.currentThread().getName(), candidates.size()));
                maglev.prepare(candidates);
            }
        };
    }
}
