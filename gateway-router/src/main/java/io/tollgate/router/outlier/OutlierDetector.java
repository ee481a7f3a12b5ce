package io.tollgate.router.outlier;

import static java.util.Objects.requireNonNull;

import io.tollgate.core.config.OutlierDetectionConfig;
import io.tollgate.router.host.Host;
import java.time.Duration;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Passive health checking of one cluster (Envoy's outlier detection, consecutive kinds): it
 * counts each host's failures in a row from real requests and ejects a host whose count reaches
 * a threshold, for the base ejection time times the number of times it was ejected, capped by
 * the maximum ejection time. At most {@code max_ejection_percent} of the hosts are ejected at
 * once. Any success resets a host's counters.
 *
 * <p>Reports come from every event loop: counters are atomics, and a report that reaches a
 * threshold hands the ejection to the control thread (the executor given), which decides it and
 * rebuilds the cluster's hosts; an event loop never takes a lock here. {@link #tick()} and
 * {@link #retain} run on that thread too, and {@link #tick()} MUST be called every
 * {@link OutlierDetectionConfig#interval()}: it ends the ejections whose time has come and, for
 * every interval a host spends back in service, lowers its ejection multiplier by one.
 */
public final class OutlierDetector implements UpstreamOutcomes {

    /** What is known of one host. Counters are lock-free; the rest belongs to the control thread. */
    private static final class HostRecord {
        final AtomicInteger serverErrors = new AtomicInteger();
        final AtomicInteger gatewayFailures = new AtomicInteger();
        final AtomicInteger connectFailures = new AtomicInteger();
        int ejections;
        long lastChangeNanos;

        void reset() {
            clear(serverErrors);
            clear(gatewayFailures);
            clear(connectFailures);
        }
    }

    private final OutlierDetectionConfig config;
    /** Replaced whole, never changed in place, so that reports read it without the lock. */
    private volatile Map<Host, HostRecord> records;
    private final OutlierListener listener;
    private final LongSupplier nanoClock;
    private final Executor control;
    private int maxEjected;
    private volatile int ejected;

    /**
     * @param hosts the cluster's hosts; reports about any other host are ignored
     * @param nanoClock a monotonic clock in nanoseconds, {@code System::nanoTime} outside tests
     * @param control the control thread, where ejections are decided
     */
    public OutlierDetector(OutlierDetectionConfig config, List<Host> hosts, OutlierListener listener, LongSupplier nanoClock,
            Executor control) {
        this.config = requireNonNull(config, "config");
        this.control = requireNonNull(control, "control");
        this.listener = requireNonNull(listener, "listener");
        this.nanoClock = requireNonNull(nanoClock, "nanoClock");
        Map<Host, HostRecord> initial = new IdentityHashMap<>();
        for (Host host : hosts) {
            initial.put(host, new HostRecord());
        }
        this.records = initial;
        this.maxEjected = maxEjected(config, hosts.size());
    }

    private static int maxEjected(OutlierDetectionConfig config, int hosts) {
        int percent = config.maxEjectionPercent();
        return percent == 0 ? 0 : Math.max(1, hosts * percent / 100);
    }

    /**
     * Follows a change of the cluster's hosts: a host with the id of a known one (the same host,
     * perhaps relabelled) keeps its counters, ejection count and any running ejection; new hosts
     * start clean; removed hosts are forgotten. Runs on the control thread.
     */
    public void retain(List<Host> hosts) {
        Map<String, HostRecord> byId = new HashMap<>();
        records.forEach((host, record) -> byId.put(host.id(), record));
        Map<Host, HostRecord> next = new IdentityHashMap<>();
        int nowEjected = 0;
        for (Host host : hosts) {
            HostRecord record = byId.get(host.id());
            next.put(host, record == null ? new HostRecord() : record);
            if (record != null && host.ejected()) {
                nowEjected++;
            }
        }
        records = next;
        ejected = nowEjected;
        maxEjected = maxEjected(config, hosts.size());
    }

    public OutlierDetectionConfig config() {
        return config;
    }

    @Override
    public void responded(Host host, int status) {
        HostRecord record = records.get(host);
        if (record == null) {
            return;
        }
        if (status < 500) {
            record.reset();
            return;
        }
        clear(record.connectFailures);
        boolean gateway = status == 502 || status == 503 || status == 504;
        if (!gateway) {
            clear(record.gatewayFailures);
        }
        if (countErrors(record, gateway)) {
            control.execute(() -> eject(host, record));
        }
    }

    @Override
    public void failed(Host host, UpstreamFailure failure) {
        HostRecord record = records.get(host);
        if (record == null) {
            return;
        }
        boolean reached = false;
        if (failure == UpstreamFailure.CONNECT_FAILURE) {
            reached = reached(record.connectFailures.incrementAndGet(), config.consecutiveConnectFailure());
        } else {
            clear(record.connectFailures);
        }
        if (countErrors(record, true) || reached) {
            control.execute(() -> eject(host, record));
        }
    }

    /** Counts a 5xx (a gateway failure too when {@code gateway}); true when a threshold is reached. */
    private boolean countErrors(HostRecord record, boolean gateway) {
        boolean reached = reached(record.serverErrors.incrementAndGet(), config.consecutive5xx());
        if (gateway) {
            reached |= reached(record.gatewayFailures.incrementAndGet(), config.consecutiveGatewayFailure());
        }
        return reached;
    }

    private static boolean reached(int count, int threshold) {
        return threshold > 0 && count >= threshold;
    }

    /** Ejects {@code host} unless it is already out or too many are; on the control thread. */
    private void eject(Host host, HostRecord record) {
        if (host.ejected() || records.get(host) != record) {
            return;
        }
        if (ejected >= maxEjected) {
            listener.ejectionRefused(host);
            return;
        }
        record.ejections++;
        Duration duration = config.baseEjectionTime().multipliedBy(record.ejections);
        if (duration.compareTo(config.maxEjectionTime()) > 0) {
            duration = config.maxEjectionTime();
        }
        record.lastChangeNanos = nanoClock.getAsLong() + duration.toNanos();
        record.reset();
        ejected++;
        host.ejected(true);
        listener.ejected(host, duration);
    }

    /**
     * Ends the ejections that have run their time and lowers the multipliers of hosts back in
     * service; on the control thread.
     */
    public void tick() {
        long now = nanoClock.getAsLong();
        long intervalNanos = config.interval().toNanos();
        for (Map.Entry<Host, HostRecord> entry : records.entrySet()) {
            Host host = entry.getKey();
            HostRecord record = entry.getValue();
            if (host.ejected()) {
                if (now - record.lastChangeNanos >= 0) {
                    record.lastChangeNanos = now;
                    record.reset();
                    ejected--;
                    host.ejected(false);
                    listener.returned(host);
                }
            } else if (record.ejections > 0 && now - record.lastChangeNanos >= intervalNanos) {
                record.ejections--;
                record.lastChangeNanos = now;
            }
        }
    }

    /** Hosts ejected right now. */
    public int ejectedHosts() {
        return ejected;
    }

    private static void clear(AtomicInteger counter) {
        if (counter.get() != 0) {
            counter.set(0);
        }
    }
}
