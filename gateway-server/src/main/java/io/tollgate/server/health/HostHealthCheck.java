package io.tollgate.server.health;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.HealthCheckConfig;
import io.tollgate.core.metrics.ClusterMetrics;
import io.tollgate.router.health.HealthCheckState;
import io.tollgate.router.health.ProbeDelays;
import io.tollgate.router.host.Host;
import io.tollgate.server.tls.UpstreamConnector;
import io.tollgate.server.transport.Transport;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The active health checking of one host: on one event loop, a probe on a fresh connection, its
 * verdict (a failure when it takes longer than the timeout) fed to the host's
 * {@link HealthCheckState}, then the next probe after the interval and jitter. Confined to its
 * loop, except the verdict: the first one, and each that flips the host's health, is handed to
 * the control thread, which sets the host and rebuilds the cluster's hosts there.
 */
final class HostHealthCheck {

    private static final Logger log = LoggerFactory.getLogger(HostHealthCheck.class);

    private final String cluster;
    private final Host host;
    private final HealthCheckConfig config;
    private final HealthChecker checker;
    private final EventLoop loop;
    private final ClusterMetrics metrics;
    private final UpstreamConnector connector;
    private final HealthCheckState state;
    private final ProbeDelays delays;
    private final Executor control;
    private final CompletableFuture<Void> firstVerdict = new CompletableFuture<>();
    private ScheduledFuture<?> next;
    private Channel probe;
    private boolean stopped;
    /** Whether a verdict was handed to the control thread: the first always is. */
    private boolean delivered;

    HostHealthCheck(ClusterConfig cluster, Host host, HealthCheckConfig config, HealthChecker checker, EventLoop loop,
            Transport transport, ClusterMetrics metrics, Executor control) {
        this.cluster = cluster.name();
        this.host = host;
        this.config = config;
        this.checker = checker;
        this.loop = loop;
        this.metrics = metrics;
        this.control = control;
        this.state = new HealthCheckState(config.healthyThreshold(), config.unhealthyThreshold());
        this.delays = new ProbeDelays(config.interval(), config.jitter(), ThreadLocalRandom.current());
        this.connector = UpstreamConnector.of(transport, loop, host, config.timeout(), cluster);
    }

    /** Sends the first probe at once; may be called from any thread. */
    void start() {
        loop.execute(this::probe);
    }

    /**
     * Completes once the host's first verdict is applied and published on the control thread, or
     * the check was stopped before it.
     */
    CompletableFuture<Void> firstVerdict() {
        return firstVerdict;
    }

    /** Stops probing; a probe in flight is abandoned. May be called from any thread. */
    void stop() {
        loop.execute(() -> {
            stopped = true;
            firstVerdict.complete(null);
            if (next != null) {
                next.cancel(false);
            }
            if (probe != null) {
                probe.close();
            }
        });
    }

    private void probe() {
        if (stopped) {
            return;
        }
        Promise<Boolean> verdict = loop.newPromise();
        ChannelFuture connect = connector.connect(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                checker.initProbe(ch.pipeline(), host, verdict);
            }
        });
        probe = connect.channel();
        connect.addListener(f -> {
            if (!f.isSuccess()) {
                verdict.trySuccess(false);
            }
        });
        ScheduledFuture<?> timeout = loop.schedule(() -> verdict.trySuccess(false),
                config.timeout().toNanos(), TimeUnit.NANOSECONDS);
        verdict.addListener(f -> {
            timeout.cancel(false);
            connect.channel().close();
            probe = null;
            judged(Boolean.TRUE.equals(f.getNow()));
        });
    }

    private void judged(boolean passed) {
        if (stopped) {
            return;
        }
        metrics.healthChecked(passed);
        boolean flipped = state.record(passed);
        if (flipped || !delivered) {
            delivered = true;
            boolean healthy = state.healthy();
            control.execute(() -> {
                host.healthy(healthy);
                // queued behind the cluster's republication, so the verdict is published when it completes
                control.execute(() -> firstVerdict.complete(null));
            });
            if (flipped && healthy) {
                log.info("cluster {}: host {} passed its health checks, back in rotation", cluster, host);
            } else if (flipped || !healthy) {
                log.warn("cluster {}: host {} failed its health checks, out of rotation", cluster, host);
            }
        }
        next = loop.schedule(this::probe, delays.nextNanos(), TimeUnit.NANOSECONDS);
    }
}
