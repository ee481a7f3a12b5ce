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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The background work that keeps a snapshot's host health current: an active health check per
 * host of every cluster that configures one, each on an event loop of the group (spread round
 * the loops), and the periodic tick of every outlier detector. Nothing of it runs on the
 * request path.
 */
public final class UpstreamHealth implements AutoCloseable {

    private final List<HostHealthCheck> checks;
    private final List<ScheduledFuture<?>> ticks;

    private UpstreamHealth(List<HostHealthCheck> checks, List<ScheduledFuture<?>> ticks) {
        this.checks = checks;
        this.ticks = ticks;
    }

    /** Starts health checking and outlier ticking for {@code snapshot} on {@code loops}. */
    public static UpstreamHealth start(Snapshot snapshot, EventLoopGroup loops, Transport transport, GatewayMetrics metrics) {
        List<HostHealthCheck> checks = new ArrayList<>();
        for (Cluster cluster : snapshot.clusters().clusters()) {
            if (cluster.config().healthCheck().isEmpty()) {
                continue;
            }
            HealthCheckConfig config = cluster.config().healthCheck().get();
            HealthChecker checker = HealthCheckers.create(config);
            for (Host host : cluster.hosts()) {
                checks.add(new HostHealthCheck(cluster.name(), host, config, checker, loops.next(), transport,
                        metrics.cluster(cluster.name())));
            }
        }
        List<ScheduledFuture<?>> ticks = new ArrayList<>();
        for (OutlierDetector detector : snapshot.outliers().all()) {
            long interval = detector.config().interval().toNanos();
            ticks.add(loops.next().scheduleAtFixedRate(detector::tick, interval, interval, TimeUnit.NANOSECONDS));
        }
        checks.forEach(HostHealthCheck::start);
        return new UpstreamHealth(checks, ticks);
    }

    @Override
    public void close() {
        checks.forEach(HostHealthCheck::stop);
        ticks.forEach(tick -> tick.cancel(false));
    }
}
