package io.tollgate.server.health;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.ScheduledFuture;
import io.tollgate.core.config.HealthCheckConfig;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.Host;
import io.tollgate.router.outlier.OutlierDetector;
import io.tollgate.server.Snapshot;
import io.tollgate.server.transport.Transport;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The background work that keeps a snapshot's host health current: an active health check per
 * host of every cluster that configures one, each on an event loop of the group (spread round
 * the loops), and the periodic tick of every outlier detector. Nothing of it runs on the
 * request path. {@link #update} follows a new snapshot: checks and ticks of what stayed go on
 * undisturbed, those of what left stop, and what is new starts.
 */
public final class UpstreamHealth implements AutoCloseable {

    /** A host of a cluster object: a rebuilt cluster of the same name has other hosts. */
    private record CheckKey(Cluster cluster, String hostId) {
    }

    private final EventLoopGroup loops;
    private final Transport transport;
    private final GatewayMetrics metrics;
    private Map<CheckKey, HostHealthCheck> checks = new HashMap<>();
    private Map<OutlierDetector, ScheduledFuture<?>> ticks = new IdentityHashMap<>();

    private UpstreamHealth(EventLoopGroup loops, Transport transport, GatewayMetrics metrics) {
        this.loops = loops;
        this.transport = transport;
        this.metrics = metrics;
    }

    /** Starts health checking and outlier ticking for {@code snapshot} on {@code loops}. */
    public static UpstreamHealth start(Snapshot snapshot, EventLoopGroup loops, Transport transport, GatewayMetrics metrics) {
        UpstreamHealth health = new UpstreamHealth(loops, transport, metrics);
        health.update(snapshot);
        return health;
    }

    /** Makes the checks and ticks those of {@code snapshot}; may be called from any thread. */
    public synchronized void update(Snapshot snapshot) {
        Map<CheckKey, HostHealthCheck> nextChecks = new HashMap<>();
        for (Cluster cluster : snapshot.clusters().clusters()) {
            if (cluster.config().healthCheck().isEmpty()) {
                continue;
            }
            HealthCheckConfig config = cluster.config().healthCheck().get();
            HealthChecker checker = HealthCheckers.create(config);
            for (Host host : cluster.hosts()) {
                CheckKey key = new CheckKey(cluster, host.id());
                HostHealthCheck check = checks.remove(key);
                if (check == null) {
                    check = new HostHealthCheck(cluster.config(), host, config, checker, loops.next(), transport,
                            metrics.cluster(cluster.name()));
                    check.start();
                }
                nextChecks.put(key, check);
            }
        }
        checks.values().forEach(HostHealthCheck::stop);
        checks = nextChecks;
        Map<OutlierDetector, ScheduledFuture<?>> nextTicks = new IdentityHashMap<>();
        for (OutlierDetector detector : snapshot.outliers().all()) {
            ScheduledFuture<?> tick = ticks.remove(detector);
            if (tick == null) {
                long interval = detector.config().interval().toNanos();
                tick = loops.next().scheduleAtFixedRate(detector::tick, interval, interval, TimeUnit.NANOSECONDS);
            }
            nextTicks.put(detector, tick);
        }
        ticks.values().forEach(tick -> tick.cancel(false));
        ticks = nextTicks;
    }

    @Override
    public synchronized void close() {
        checks.values().forEach(HostHealthCheck::stop);
        ticks.values().forEach(tick -> tick.cancel(false));
    }
}
