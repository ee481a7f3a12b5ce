package io.tollgate.server.health;

import io.tollgate.core.config.LoadBalancingConfig;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.cluster.Host;
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
 * entries, whose rebuilds (the cluster publishing a version) note the thread they ran on, so a
 * test can tell that no rebuild ran on an event loop.
 */
public final class RebuildRecordingMaglevFactory implements LoadBalancerFactory {

    /** Large enough that a rebuild takes noticeable time. */
    static final int TABLE_SIZE = 1_000_003;

    private static final Queue<String> REBUILD_THREADS = new ConcurrentLinkedQueue<>();

    @Override
    public String name() {
        return "recording_maglev";
    }

    /** The names of the threads rebuilds ran on since the last call, in order. */
    static List<String> drainRebuildThreads() {
        List<String> names = List.copyOf(REBUILD_THREADS);
        REBUILD_THREADS.clear();
        return names;
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
                REBUILD_THREADS.add(Thread.currentThread().getName());
                maglev.prepare(candidates);
            }
        };
    }
}
