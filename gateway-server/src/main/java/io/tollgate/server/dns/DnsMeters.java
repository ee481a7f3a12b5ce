package io.tollgate.server.dns;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.tollgate.core.metrics.MetricNames;

/** The counters of one DNS cluster's resolutions, tagged with the cluster's name. */
final class DnsMeters {

    /** Counter: resolutions of a DNS cluster's names started (each name, each time). */
    static final String RESOLUTIONS = "tollgate.upstream.dns.resolutions";
    /** Counter: resolutions that failed (no answer in time, NXDOMAIN, no address); the last addresses stay. */
    static final String FAILURES = "tollgate.upstream.dns.failures";
    /** Counter: answers that changed the hosts, or where a {@code logical_dns} host connects. */
    static final String CHANGES = "tollgate.upstream.dns.changes";
    /** Counter: resolutions started early because a connect to one of the cluster's hosts failed. */
    static final String CONNECT_FAILURE_REFRESHES = "tollgate.upstream.dns.connect_failure_refreshes";

    final Counter resolutions;
    final Counter failures;
    final Counter changes;
    final Counter connectFailureRefreshes;

    DnsMeters(MeterRegistry registry, String cluster) {
        Tags tags = Tags.of(MetricNames.TAG_CLUSTER, cluster);
        this.resolutions = registry.counter(RESOLUTIONS, tags);
        this.failures = registry.counter(FAILURES, tags);
        this.changes = registry.counter(CHANGES, tags);
        this.connectFailureRefreshes = registry.counter(CONNECT_FAILURE_REFRESHES, tags);
    }
}
