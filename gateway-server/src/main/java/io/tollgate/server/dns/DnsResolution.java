package io.tollgate.server.dns;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.DnsConfig;
import io.tollgate.router.cluster.Cluster;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps resolving the names of one DNS cluster: every name at once, then again after the refresh
 * rate (or the answer's TTL, with {@code respect_dns_ttl}), sooner after a failure (an exponential
 * backoff from {@code dns_failure_refresh_rate}) or when a connect to one of the cluster's hosts
 * failed (at most once per {@code dns_min_refresh_rate}). A name whose lookup fails keeps its last
 * addresses. Lookups run on the resolver's event loop, where this object's state lives; each round's
 * answers go to the control thread, which publishes the hosts ({@link DnsHostSets}).
 */
final class DnsResolution {

    private static final Logger log = LoggerFactory.getLogger(DnsResolution.class);

    private final Cluster cluster;
    private final ClusterConfig declared;
    private final DnsConfig dns;
    private final List<String> names;
    private final EventLoop loop;
    private final DnsLookup lookup;
    private final Executor control;
    private final DnsMeters meters;
    /** Called on the control thread with each round's answers, by name. */
    private final BiConsumer<DnsResolution, Map<String, DnsAnswer>> publisher;
    private final CompletableFuture<Void> firstRound = new CompletableFuture<>();
    private final AtomicBoolean refreshRequested = new AtomicBoolean();
    /** The last answer of each name that ever resolved, replaced whole after each round. */
    private volatile Map<String, DnsAnswer> lastAnswers;
    private volatile boolean stopped;

    // confined to the loop
    private io.netty.util.concurrent.ScheduledFuture<?> next;
    private long nextAtNanos;
    private boolean inFlight;
    private long lastStartNanos;
    private int failureStreak;

    DnsResolution(Cluster cluster, ClusterConfig declared, EventLoop loop, Executor control, DnsMeters meters,
            BiConsumer<DnsResolution, Map<String, DnsAnswer>> publisher, Map<String, DnsAnswer> seed) {
        this.cluster = cluster;
        this.declared = declared;
        this.dns = declared.dns().orElseThrow();
        Set<String> distinct = new LinkedHashSet<>();
        declared.endpoints().forEach(e -> distinct.add(e.address()));
        this.names = List.copyOf(distinct);
        this.loop = loop;
        this.lookup = DnsLookup.create(loop, dns);
        this.control = control;
        this.meters = meters;
        this.publisher = publisher;
        Map<String, DnsAnswer> kept = new HashMap<>(seed);
        kept.keySet().retainAll(distinct);
        this.lastAnswers = Map.copyOf(kept);
    }

    Cluster cluster() {
        return cluster;
    }

    ClusterConfig declared() {
        return declared;
    }

    /** Whether this resolution already serves {@code target} as {@code config} declares it. */
    boolean serves(Cluster target, ClusterConfig config) {
        return target == cluster && config.endpoints().equals(declared.endpoints()) && config.dns().equals(declared.dns());
    }

    /** The last answers, by name, for a resolution of the same names that takes over. */
    Map<String, DnsAnswer> lastAnswers() {
        return lastAnswers;
    }

    /** Completes once the first round's answers (or failures) were handed to the control thread and applied. */
    CompletableFuture<Void> firstRound() {
        return firstRound;
    }

    boolean stopped() {
        return stopped;
    }

    /** Starts the first round. */
    void start() {
        loop.execute(this::resolveNow);
    }

    /** Stops resolving; a round under way is dropped. From any thread. */
    void stop() {
        stopped = true;
        firstRound.complete(null);
        loop.execute(() -> {
            if (next != null) {
                next.cancel(false);
            }
            lookup.close();
        });
    }

    /**
     * A connect to one of the cluster's hosts failed: resolve again soon. From any thread (an event
     * loop's connect): hands one task to the resolver's loop however many connects fail meanwhile.
     */
    void connectFailed() {
        if (!stopped && refreshRequested.compareAndSet(false, true)) {
            loop.execute(this::refreshAfterConnectFailure);
        }
    }

    private void refreshAfterConnectFailure() {
        refreshRequested.set(false);
        if (stopped || inFlight) {
            return;
        }
        long earliest = lastStartNanos + debounce().toNanos();
        long now = System.nanoTime();
        if (now - earliest >= 0) {
            meters.connectFailureRefreshes.increment();
            resolveNow();
        } else if (next == null || nextAtNanos - earliest > 0) {
            meters.connectFailureRefreshes.increment();
            schedule(earliest - now);
        }
    }

    /** How soon after a round a connect failure may start another. */
    private Duration debounce() {
        return dns.minRefreshRate().compareTo(dns.refreshRate()) < 0 ? dns.minRefreshRate() : dns.refreshRate();
    }

    private void resolveNow() {
        if (stopped || inFlight) {
            return;
        }
        if (next != null) {
            next.cancel(false);
            next = null;
        }
        inFlight = true;
        lastStartNanos = System.nanoTime();
        Map<String, DnsAnswer> answers = new HashMap<>(lastAnswers);
        int[] pending = {names.size()};
        boolean[] failed = {false};
        Duration[] ttl = {null};
        for (String name : names) {
            meters.resolutions.increment();
            lookup.lookup(name).addListener((Future<DnsAnswer> f) -> {
                if (f.isSuccess()) {
                    answers.put(name, f.getNow());
                    Duration t = f.getNow().ttl();
                    ttl[0] = ttl[0] == null || t.compareTo(ttl[0]) < 0 ? t : ttl[0];
                } else {
                    failed[0] = true;
                    meters.failures.increment();
                    log.debug("cluster {}: resolving {} failed, keeping its last addresses: {}", declared.name(), name,
                            f.cause().toString());
                }
                if (--pending[0] == 0) {
                    roundDone(Map.copyOf(answers), failed[0], ttl[0]);
                }
            });
        }
    }

    private void roundDone(Map<String, DnsAnswer> answers, boolean failed, Duration smallestTtl) {
        inFlight = false;
        if (stopped) {
            return;
        }
        lastAnswers = answers;
        control.execute(() -> {
            if (!stopped) {
                publisher.accept(this, answers);
            }
            firstRound.complete(null);
        });
        schedule(nextDelay(failed, smallestTtl).toNanos());
    }

    /** After a failure the backoff; else the TTL (no shorter than the minimum) or the refresh rate. */
    private Duration nextDelay(boolean failed, Duration smallestTtl) {
        if (failed) {
            failureStreak++;
            Duration backoff = dns.failureBaseInterval().multipliedBy(1L << Math.min(20, failureStreak - 1));
            return backoff.compareTo(dns.failureMaxInterval()) > 0 ? dns.failureMaxInterval() : backoff;
        }
        failureStreak = 0;
        if (dns.respectTtl() && smallestTtl != null) {
            return smallestTtl.compareTo(dns.minRefreshRate()) < 0 ? dns.minRefreshRate() : smallestTtl;
        }
        return dns.refreshRate();
    }

    private void schedule(long delayNanos) {
        if (next != null) {
            next.cancel(false);
        }
        nextAtNanos = System.nanoTime() + delayNanos;
        next = loop.schedule(this::resolveNow, delayNanos, TimeUnit.NANOSECONDS);
    }
}
