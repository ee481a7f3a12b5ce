package io.tollgate.router.originaldst;

import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.OriginalDstConfig;
import io.tollgate.core.metrics.OriginalDstCounts;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.host.Host;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * The hosts of one {@code original_dst} cluster (Envoy's {@code ORIGINAL_DST}), one per
 * destination a redirected connection was sent to. Event loops choose from any thread: a known
 * destination costs a map look-up and no allocation; a new one becomes a host unless the cluster
 * already holds {@code max_hosts}, in which case the destinations idle longer than {@code
 * host_idle_timeout} are dropped first. A connection that was not redirected (its destination is
 * the listener itself) has no destination and is refused, never sent back to the gateway.
 */
public final class OriginalDstHosts {

    private final OriginalDstConfig config;
    private final LongSupplier nanoClock;
    private final long idleNanos;
    private final Map<InetSocketAddress, Slot> hosts = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();
    /** Whether a thread is dropping idle destinations; the others go on without waiting. */
    private final AtomicBoolean sweeping = new AtomicBoolean();
    private final DestinationCounts counts = new DestinationCounts();
    /** When idle destinations are next looked for, so that they go even while the cluster is not full. */
    private volatile long nextSweepNanos;

    public OriginalDstHosts(OriginalDstConfig config, LongSupplier nanoClock) {
        this.config = config;
        this.nanoClock = nanoClock;
        this.idleNanos = config.hostIdleTimeout().toNanos();
        this.nextSweepNanos = nanoClock.getAsLong() + idleNanos;
    }

    /**
     * The host for where {@code request} was going: its HTTP header's address when the cluster
     * reads {@value OriginalDstConfig#HTTP_HEADER} and the request has a valid one, else its
     * connection's original destination; null, counted, when it has none (not redirected, or a
     * header that is not an IP literal and port) or the cluster holds as many hosts as it may.
     */
    public Host choose(RouteRequest request) {
        InetSocketAddress destination = null;
        if (config.useHttpHeader()) {
            String named = request.header(OriginalDstConfig.HTTP_HEADER);
            if (named != null) {
                destination = HostHeaderAddress.parse(named);
                if (destination == null) {
                    counts.badHeader.increment();
                    return null;
                }
            }
        }
        if (destination == null) {
            destination = request.originalDestination();
        }
        if (destination == null) {
            counts.notRedirected.increment();
            return null;
        }
        long now = nanoClock.getAsLong();
        Slot slot = hosts.get(destination);
        if (slot == null) {
            slot = add(destination, now);
            if (slot == null) {
                counts.overflow.increment();
                return null;
            }
        }
        slot.lastUsedNanos = now;
        return slot.host;
    }

    /** Whether {@code host} is still one of these hosts (not dropped as idle). */
    public boolean serves(Host host) {
        Slot slot = hosts.get(host.address());
        return slot != null && slot.host == host;
    }

    /** How many destinations are hosts now. */
    public int size() {
        return count.get();
    }

    /** What was refused and made so far. */
    public OriginalDstCounts counts() {
        return counts;
    }

    private Slot add(InetSocketAddress destination, long now) {
        if (count.get() >= config.maxHosts() || now - nextSweepNanos >= 0) {
            dropIdle(now);
        }
        Slot made = new Slot(destination);
        Slot before = hosts.putIfAbsent(destination, made);
        if (before != null) {
            return before;
        }
        if (count.incrementAndGet() > config.maxHosts()) {
            hosts.remove(destination, made);
            count.decrementAndGet();
            return null;
        }
        counts.hostsMade.increment();
        return made;
    }

    /** Drops the destinations no request chose within the idle timeout and that carry no request now. */
    private void dropIdle(long now) {
        if (!sweeping.compareAndSet(false, true)) {
            return;
        }
        try {
            nextSweepNanos = now + idleNanos;
            hosts.values().removeIf(slot -> {
                boolean idle = now - slot.lastUsedNanos >= idleNanos && slot.host.activeRequests() == 0;
                if (idle) {
                    count.decrementAndGet();
                    counts.hostsDropped.increment();
                }
                return idle;
            });
        } finally {
            sweeping.set(false);
        }
    }

    /** One destination's host and when it was last chosen. */
    private static final class Slot {

        final Host host;
        /** Written by whichever loop chose it last; a stale read only delays the drop. */
        volatile long lastUsedNanos;

        Slot(InetSocketAddress destination) {
            String address = destination.getAddress().getHostAddress();
            this.host = new Host(new EndpointConfig(address, destination.getPort(), 1, Map.of()));
        }
    }
}
