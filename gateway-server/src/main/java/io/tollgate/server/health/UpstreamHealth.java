package io.tollgate.server.health;

import io.netty.channel.EventLoopGroup;
import io.tollgate.core.config.HealthCheckConfig;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.host.Host;
import io.tollgate.router.outlier.OutlierDetector;
import io.tollgate.server.control.ControlThread;
import io.tollgate.server.snapshot.Snapshot;
import io.tollgate.server.transport.Transport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The background work that keeps a snapshot's host health current: an active health check per
 * host of every cluster that configures one, each probing on an event loop of the group (spread
 * round the loops) and handing its verdicts to the control thread, and the periodic tick of every
 * outlier detector, on the control thread. Nothing of it runs on the request path.
 * {@link #update} follows a new snapshot: checks and ticks of what stayed go on undisturbed,
 * those of what left stop, and what is new starts. Confined to the control thread.
 */
public final class UpstreamHealth implements AutoCloseable {

    /** A host of a cluster object: a rebuilt cluster of the same name has other hosts. */
    private record CheckKey(Cluster cluster, String hostId) {
    }

    private final EventLoopGroup loops;
    private final Transport transport;
    private final GatewayMetrics metrics;
    private final ControlThread control;
    private Map<CheckKey, HostHealthCheck> checks = new HashMap<>();
    private Map<OutlierDetector, ScheduledFuture<?>> ticks = new IdentityHashMap<>();

    private UpstreamHealth(EventLoopGroup loops, Transport transport, GatewayMetrics metrics, ControlThread control) {
        this.loops = loops;
        this.control = control;
        this.transport = transport;
        this.metrics = metrics;
    }

    /**
     * Health checking that probes on {@code loops} and applies verdicts on {@code control}, with
     * nothing to check until {@link #update}.
     */
    public static UpstreamHealth create(EventLoopGroup loops, Transport transport, GatewayMetrics metrics,
            ControlThread control) {
        return new UpstreamHealth(loops, transport, metrics, control);
    }

    /**
     * Makes the checks and ticks those of {@code snapshot}; on the control thread. Returns what
     * completes once every new check has had its first verdict applied (the new hosts are then
     * in or out of rotation), or been stopped.
     */
    public CompletableFuture<Void> update(Snapshot snapshot) {
        Map<CheckKey, HostHealthCheck> nextChecks = new HashMap<>();
        List<CompletableFuture<Void>> firstVerdicts = new ArrayList<>();
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
                            metrics.cluster(cluster.name()), control);
                    firstVerdicts.add(check.firstVerdict());
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
                tick = control.every(interval, TimeUnit.NANOSECONDS, detector::tick);
            }
            nextTicks.put(detector, tick);
        }
        ticks.values().forEach(tick -> tick.cancel(false));
        ticks = nextTicks;
        return CompletableFuture.allOf(firstVerdicts.toArray(CompletableFuture[]::new));
    }

    /** Stops every check and tick; on the control thread. */
    @Override
    public void close() {
        checks.values().forEach(HostHealthCheck::stop);
        ticks.values().forEach(tick -> tick.cancel(false));
    }
}
