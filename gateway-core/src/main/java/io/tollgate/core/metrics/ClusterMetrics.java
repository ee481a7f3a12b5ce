package io.tollgate.core.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The upstream meters of one cluster, every one resolved when the cluster is first seen.
 * Thread-safe: the connection pools of every event loop count into the same instance.
 */
public final class ClusterMetrics {

    private final ConnectionMeters connections;
    private final Counter connectFailures;
    private final Counter noHealthyHost;
    private final Counter poolOverflows;
    private final Counter connectionOverflows;
    private final Counter requestOverflows;
    private final Counter retries;
    private final Counter retryOverflows;
    private final Counter redispatches;
    private final Counter hostsDown;
    private final Counter retrySuccesses;
    private final Counter retryLimitsExceeded;
    private final Counter timeouts;
    private final Counter resets;
    private final Counter lateResponses;
    private final StatusClassCounters responses;
    private final Timer requestTime;
    private final Counter ejections;
    private final AtomicLong ejected = new AtomicLong();
    private final Counter ejectionsOverflow;
    private final Counter healthChecks;
    private final Counter healthCheckFailures;
    private final MeterRegistry registry;
    private final ConnectionErrorMeters connectionErrors;
    private final Tags tags;
    /** Told of every failed connect (a DNS cluster resolving its names again), or null. */
    private volatile Runnable connectFailureWatcher;
    /** Created with the first subset source: clusters without subsets publish no subset counters. */
    private CarriedCounters<SubsetCounts> subsets;
    /** Created with the first source: only {@code original_dst} clusters publish these counters. */
    private CarriedCounters<OriginalDstCounts> originalDst;

    ClusterMetrics(MeterRegistry registry, String clusterName, ConnectionErrorMeters connectionErrors) {
        this.registry = registry;
        this.connectionErrors = connectionErrors;
        this.tags = Tags.of(MetricNames.TAG_CLUSTER, clusterName);
        this.connections = new ConnectionMeters(
                registry, MetricNames.UPSTREAM_CX_ACTIVE, MetricNames.UPSTREAM_CX_TOTAL, tags);
        this.connectFailures = registry.counter(MetricNames.UPSTREAM_CX_CONNECT_FAIL, tags);
        this.noHealthyHost = registry.counter(MetricNames.UPSTREAM_CX_NONE_HEALTHY, tags);
        this.poolOverflows = registry.counter(MetricNames.UPSTREAM_RQ_PENDING_OVERFLOW, tags);
        this.connectionOverflows = registry.counter(MetricNames.UPSTREAM_CX_OVERFLOW, tags);
        this.requestOverflows = registry.counter(MetricNames.UPSTREAM_RQ_OVERFLOW, tags);
        this.retries = registry.counter(MetricNames.UPSTREAM_RQ_RETRY, tags);
        this.retryOverflows = registry.counter(MetricNames.UPSTREAM_RQ_RETRY_OVERFLOW, tags);
        this.redispatches = registry.counter(MetricNames.UPSTREAM_RQ_REDISPATCH, tags);
        this.hostsDown = registry.counter(MetricNames.UPSTREAM_CX_HOST_DOWN, tags);
        this.retrySuccesses = registry.counter(MetricNames.UPSTREAM_RQ_RETRY_SUCCESS, tags);
        this.retryLimitsExceeded = registry.counter(MetricNames.UPSTREAM_RQ_RETRY_LIMIT_EXCEEDED, tags);
        this.timeouts = registry.counter(MetricNames.UPSTREAM_RQ_TIMEOUT, tags);
        this.resets = registry.counter(MetricNames.UPSTREAM_RQ_RESET, tags);
        this.lateResponses = registry.counter(MetricNames.UPSTREAM_RQ_LATE, tags);
        this.responses = new StatusClassCounters(registry, MetricNames.UPSTREAM_RQ, tags);
        this.requestTime = Timer.builder(MetricNames.UPSTREAM_RQ_TIME)
                .tags(tags)
                .publishPercentileHistogram()
                .register(registry);
        this.ejections = registry.counter(MetricNames.UPSTREAM_OUTLIER_EJECTIONS, tags);
        Gauge.builder(MetricNames.UPSTREAM_OUTLIER_EJECTED, ejected, AtomicLong::get).tags(tags).strongReference(true)
                .register(registry);
        this.ejectionsOverflow = registry.counter(MetricNames.UPSTREAM_OUTLIER_OVERFLOW, tags);
        this.healthChecks = registry.counter(MetricNames.UPSTREAM_HEALTH_CHECK_ATTEMPT, tags);
        this.healthCheckFailures = registry.counter(MetricNames.UPSTREAM_HEALTH_CHECK_FAILURE, tags);
    }

    /** Counts an established connection; MUST be paired with exactly one {@link #connectionClosed()}. */
    public void connectionOpened() {
        connections.opened();
    }

    public void connectionClosed() {
        connections.closed();
    }

    /** Counts a failed connect and tells the {@link #watchConnectFailures watcher}, if any, on the caller's thread. */
    public void connectFailure() {
        connectFailures.increment();
        Runnable watcher = connectFailureWatcher;
        if (watcher != null) {
            watcher.run();
        }
    }

    /**
     * Makes {@code watcher} (null for none) hear of every failed connect to the cluster's hosts,
     * from whichever event loop it failed on: it MUST only hand work over, never block.
     */
    public void watchConnectFailures(Runnable watcher) {
        this.connectFailureWatcher = watcher;
    }

    public void poolOverflow() {
        poolOverflows.increment();
    }

    public void connectionOverflow() {
        connectionOverflows.increment();
    }

    public void requestOverflow() {
        requestOverflows.increment();
    }

    public void retry() {
        retries.increment();
    }

    /** Counts a request moved to another host with nothing sent; not a retry. */
    public void redispatch() {
        redispatches.increment();
    }

    /** Counts a pool that learned its host died. */
    public void hostDown() {
        hostsDown.increment();
    }

    public void retryOverflow() {
        retryOverflows.increment();
    }

    public void retrySuccess() {
        retrySuccesses.increment();
    }

    public void retryLimitExceeded() {
        retryLimitsExceeded.increment();
    }

    public void timeout() {
        timeouts.increment();
    }

    public void reset() {
        resets.increment();
    }

    /** Counts a response whose request had already ended, dropped on arrival. */
    public void lateResponse() {
        lateResponses.increment();
    }

    public void noHealthyHost() {
        noHealthyHost.increment();
    }

    /** Counts an upstream response by status class and records how long the exchange took. */
    public void requestCompleted(int status, long durationNanos) {
        responses.count(status);
        requestTime.record(durationNanos, TimeUnit.NANOSECONDS);
    }

    /** Counts an ejection; MUST be paired with exactly one {@link #hostReturned()}. */
    public void hostEjected() {
        ejections.increment();
        ejected.incrementAndGet();
    }

    public void hostReturned() {
        ejected.decrementAndGet();
    }

    public void ejectionOverflow() {
        ejectionsOverflow.increment();
    }

    /**
     * Publishes {@code counts} as this cluster's subset counters (exact, keys-subset fallback,
     * policy fallback, no host). Called again after a reload with the new cluster's counts, it
     * carries the old totals over.
     */
    public synchronized void subsetCounts(SubsetCounts counts) {
        if (subsets == null) {
            subsets = new CarriedCounters<>(registry, tags, List.of(MetricNames.UPSTREAM_LB_SUBSET_EXACT,
                    MetricNames.UPSTREAM_LB_SUBSET_KEYS_FALLBACK, MetricNames.UPSTREAM_LB_SUBSET_POLICY_FALLBACK,
                    MetricNames.UPSTREAM_LB_SUBSET_NO_HOST), List.of(SubsetCounts::exactMatches,
                    SubsetCounts::keysSubsetFallbacks, SubsetCounts::policyFallbacks, SubsetCounts::noHost));
        }
        subsets.source(counts);
    }

    /**
     * Publishes {@code counts} as this {@code original_dst} cluster's counters (not redirected, bad
     * header, overflow, hosts made and dropped); after a reload, the old totals are carried over.
     */
    public synchronized void originalDstCounts(OriginalDstCounts counts) {
        if (originalDst == null) {
            originalDst = new CarriedCounters<>(registry, tags, List.of(MetricNames.ORIGINAL_DST_NOT_REDIRECTED,
                    MetricNames.ORIGINAL_DST_BAD_HEADER, MetricNames.ORIGINAL_DST_OVERFLOW,
                    MetricNames.ORIGINAL_DST_HOSTS_MADE, MetricNames.ORIGINAL_DST_HOSTS_DROPPED),
                    List.of(OriginalDstCounts::notRedirected, OriginalDstCounts::badHeader, OriginalDstCounts::overflow,
                            OriginalDstCounts::hostsMade, OriginalDstCounts::hostsDropped));
        }
        originalDst.source(counts);
    }

    /** Counts one active health probe and whether it passed. */
    public void healthChecked(boolean passed) {
        healthChecks.increment();
        if (!passed) {
            healthCheckFailures.increment();
        }
    }

    /** The process's counters of errors that ended connections. */
    public ConnectionErrorMeters connectionErrors() {
        return connectionErrors;
    }
}
