package io.tollgate.server.overload;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.tollgate.core.config.OverloadConfig;
import io.tollgate.core.metrics.MetricNames;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process's protection against running out of heap or descriptors (Envoy's overload manager
 * and its downstream connection limit). One control thread looks at the resources every
 * {@code check_interval} and flips one volatile flag; event loops only read it: while it is set,
 * listeners close new connections at once and new requests are answered with the protocol's
 * "overloaded" error. It also counts the downstream connections of every listener against the
 * process-wide limit.
 */
public final class OverloadGuard implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OverloadGuard.class);

    private final int maxConnections;
    private final AtomicInteger connections = new AtomicInteger();
    private final ScheduledExecutorService control;
    private volatile boolean overloaded;

    private OverloadGuard(int maxConnections, ScheduledExecutorService control) {
        this.maxConnections = maxConnections;
        this.control = control;
    }

    /** Starts watching the resources as {@code config} says, reporting in {@code registry}. */
    public static OverloadGuard start(OverloadConfig config, MeterRegistry registry) {
        ScheduledExecutorService control = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "tollgate-overload");
            thread.setDaemon(true);
            return thread;
        });
        OverloadGuard guard = new OverloadGuard(config.maxConnections(), control);
        ResourcePressure pressure = new ResourcePressure(config.heapThreshold(), config.fdThreshold());
        Gauge.builder(MetricNames.OVERLOAD_ACTIVE, guard, g -> g.overloaded ? 1 : 0).register(registry);
        long interval = config.checkInterval().toNanos();
        control.scheduleWithFixedDelay(() -> guard.update(pressure.exceeded()), 0, interval, TimeUnit.NANOSECONDS);
        return guard;
    }

    /** A guard that never sheds and limits no connections: for gateways built piece by piece in tests. */
    public static OverloadGuard none() {
        return new OverloadGuard(0, null);
    }

    /** Whether new connections and requests are refused now. Cheap: one volatile read. */
    public boolean overloaded() {
        return overloaded;
    }

    /**
     * Counts a new downstream connection against the process-wide limit.
     *
     * @return false when the limit is reached: the connection was not counted and MUST be closed
     */
    public boolean tryOpenConnection() {
        int open = connections.incrementAndGet();
        if (maxConnections > 0 && open > maxConnections) {
            connections.decrementAndGet();
            return false;
        }
        return true;
    }

    /** A connection counted by {@link #tryOpenConnection} closed. */
    public void connectionClosed() {
        connections.decrementAndGet();
    }

    private void update(String exceeded) {
        boolean now = exceeded != null;
        if (now != overloaded) {
            overloaded = now;
            if (now) {
                log.warn("overloaded ({}): refusing new connections and shedding new requests", exceeded);
            } else {
                log.warn("no longer overloaded: accepting connections and requests again");
            }
        }
    }

    @Override
    public void close() {
        if (control != null) {
            control.shutdownNow();
        }
    }
}
