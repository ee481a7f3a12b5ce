package io.tollgate.server.dns;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.DnsConfig;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.ClusterManager;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The {@code strict_dns} and {@code logical_dns} clusters of the running configuration, each kept
 * resolved by a {@link DnsResolution}. Lookups run on one event loop of their own
 * ({@code tollgate-dns}, made with the first DNS cluster), never on the loops that serve traffic;
 * answers are applied on the control thread, where the new host sets are built and published as
 * an xDS endpoint push is, and where the gateway is told so that health checks, outlier detection
 * and upstream pools follow. A failed connect to a host of a DNS cluster, on any event loop, asks
 * for an early resolution through the cluster's connect-failure counter.
 *
 * <p>{@link #update} and {@link #close} run on the control thread.
 */
public final class DnsClusters implements AutoCloseable {

    private final Executor control;
    private final GatewayMetrics metrics;
    private final Consumer<Cluster> hostsChanged;
    private final Map<String, DnsMeters> meters = new HashMap<>();
    private Map<String, DnsResolution> resolutions = new HashMap<>();
    private EventLoopGroup loopGroup;

    /**
     * Resolutions whose answers are applied on {@code control}, counted in {@code metrics};
     * {@code hostsChanged} hears, on the control thread, of each cluster whose host set changed.
     */
    public DnsClusters(Executor control, GatewayMetrics metrics, Consumer<Cluster> hostsChanged) {
        this.control = control;
        this.metrics = metrics;
        this.hostsChanged = hostsChanged;
    }

    /**
     * The cluster to build for {@code declared}, given the cluster {@code before} of the same name:
     * a DNS cluster is built with resolved hosts, never with its names, which only its resolution
     * reads. Those of {@code before} when it was a DNS cluster of the same type: they serve until
     * the first answer (for other names too, as a warming cluster's predecessor does); else none.
     */
    public static ClusterConfig asBuilt(ClusterConfig declared, Cluster before) {
        if (declared.dns().isEmpty()) {
            return declared;
        }
        boolean carry = before != null && before.config().dns().map(DnsConfig::type)
                .equals(declared.dns().map(DnsConfig::type));
        return declared.withEndpoints(carry ? before.config().endpoints() : List.of());
    }

    /**
     * Resolves the DNS clusters of {@code config}, built in {@code clusters}: a cluster resolved
     * already with the same names goes on; others start (taking over the last answers of the one they
     * replace), and those gone stop. Returns what completes once each new resolution's first round
     * was applied.
     */
    public CompletableFuture<Void> update(GatewayConfig config, ClusterManager clusters) {
        Map<String, DnsResolution> next = new HashMap<>();
        List<CompletableFuture<Void>> firstRounds = new ArrayList<>();
        for (ClusterConfig declared : config.clusters()) {
            if (declared.dns().isEmpty()) {
                continue;
            }
            Cluster cluster = clusters.cluster(declared.name());
            DnsResolution running = resolutions.remove(declared.name());
            if (running != null && running.serves(cluster, declared)) {
                next.put(declared.name(), running);
                continue;
            }
            DnsResolution started = new DnsResolution(cluster, declared, loop(), control,
                    meters.computeIfAbsent(declared.name(), name -> new DnsMeters(metrics.registry(), name)),
                    this::apply, running == null ? Map.of() : running.lastAnswers());
            if (running != null) {
                running.stop();
            }
            metrics.cluster(declared.name()).watchConnectFailures(started::connectFailed);
            started.start();
            firstRounds.add(started.firstRound());
            next.put(declared.name(), started);
        }
        for (DnsResolution gone : resolutions.values()) {
            gone.stop();
            metrics.cluster(gone.declared().name()).watchConnectFailures(null);
        }
        resolutions = next;
        return CompletableFuture.allOf(firstRounds.toArray(CompletableFuture[]::new));
    }

    /**
     * How long a start waits for the first round of every DNS cluster (as Envoy's cluster
     * initialization does) before listeners accept: twice the longest query timeout and a second (a
     * lookup family with a fallback asks twice).
     */
    public static long firstRoundsBound(GatewayConfig config) {
        long timeoutNanos = config.clusters().stream().flatMap(c -> c.dns().stream())
                .mapToLong(d -> d.queryTimeout().toNanos()).max().orElse(0);
        return 2 * timeoutNanos + TimeUnit.SECONDS.toNanos(1);
    }

    /** Applies a round's answers; on the control thread. */
    private void apply(DnsResolution resolution, Map<String, DnsAnswer> answers) {
        DnsHostSets.Change change = DnsHostSets.apply(resolution.cluster(), resolution.declared(), answers);
        if (change == DnsHostSets.Change.NONE) {
            return;
        }
        meters.get(resolution.declared().name()).changes.increment();
        if (change == DnsHostSets.Change.HOSTS) {
            hostsChanged.accept(resolution.cluster());
        }
    }

    private EventLoop loop() {
        if (loopGroup == null) {
            loopGroup = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("tollgate-dns", true),
                    NioIoHandler.newFactory());
        }
        return loopGroup.next();
    }

    /** Stops every resolution and the resolver's event loop. */
    @Override
    public void close() {
        resolutions.values().forEach(DnsResolution::stop);
        resolutions = Map.of();
        if (loopGroup != null) {
            loopGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
