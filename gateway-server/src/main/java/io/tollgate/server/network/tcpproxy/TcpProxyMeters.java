package io.tollgate.server.network.tcpproxy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.tollgate.core.metrics.MetricNames;
import java.util.concurrent.atomic.AtomicInteger;

/** The meters of one TCP proxy listener and its cluster, registered once per listener. */
final class TcpProxyMeters {

    private final MeterRegistry registry;
    private final Tags tags;
    private final Counter connections;
    private final AtomicInteger active = new AtomicInteger();
    private final Counter rxBytes;
    private final Counter txBytes;
    private final Counter idleTimeouts;
    private final Counter spliced;
    private final Counter splicedBytes;

    TcpProxyMeters(MeterRegistry registry, String listener, String cluster) {
        this.registry = registry;
        this.tags = Tags.of(MetricNames.TAG_LISTENER, listener, MetricNames.TAG_CLUSTER, cluster);
        this.connections = registry.counter(MetricNames.TCP_CX_TOTAL, tags);
        Gauge.builder(MetricNames.TCP_CX_ACTIVE, active, AtomicInteger::get).tags(tags).register(registry);
        this.rxBytes = registry.counter(MetricNames.TCP_RX_BYTES, tags);
        this.txBytes = registry.counter(MetricNames.TCP_TX_BYTES, tags);
        this.idleTimeouts = registry.counter(MetricNames.TCP_IDLE_TIMEOUT, tags);
        this.spliced = registry.counter(MetricNames.TCP_CX_SPLICED, tags);
        this.splicedBytes = registry.counter(MetricNames.TCP_SPLICED_BYTES, tags);
    }

    void connected() {
        connections.increment();
        active.incrementAndGet();
    }

    void disconnected() {
        active.decrementAndGet();
    }

    void received(long bytes) {
        rxBytes.increment(bytes);
    }

    void sent(long bytes) {
        txBytes.increment(bytes);
    }

    void spliced() {
        spliced.increment();
    }

    void splicedBytes(long bytes) {
        splicedBytes.increment(bytes);
    }

    void idleTimeout() {
        idleTimeouts.increment();
    }

    /** A connection closed without an upstream, for {@code reason}; rare, so looked up when it happens. */
    void noUpstream(String reason) {
        registry.counter(MetricNames.TCP_CX_NO_UPSTREAM, tags.and(MetricNames.TAG_REASON, reason)).increment();
    }
}
