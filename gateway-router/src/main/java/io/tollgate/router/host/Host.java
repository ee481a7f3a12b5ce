package io.tollgate.router.host;

import io.tollgate.core.config.EndpointConfig;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One upstream host of a cluster. Its identity (address, weight, labels) is immutable; its
 * health and load are live state shared by every event loop and kept when the host's weight or
 * labels change (the cluster then holds a new {@code Host} sharing that state). Its count of
 * active requests sits in the cluster's dense {@link ActiveRequests}, where load balancers read it.
 *
 * <p>Health and ejection are set by one thread, the gateway's control thread (health verdicts
 * and ejection decisions are handed to it), which then rebuilds the cluster's hosts; event loops
 * only read them.
 */
public final class Host {

    /** {@link #addedAtNanos()} of a host that came with the cluster's first version. */
    public static final long NOT_ADDED = Long.MIN_VALUE;

    private final InetSocketAddress address;
    private final int weight;
    private final Map<String, String> labels;
    private final String id;
    private final LiveState live;
    private final long addedAtNanos;
    /** Its index in its cluster's host sets, or -1 for a host of no cluster. */
    private final int slot;
    /** Where a {@code logical_dns} host connects now; null for every other host. */
    private final LogicalAddress logical;

    /** A host of no cluster that tells nobody when its health changes; for load balancer tests and tools. */
    public Host(EndpointConfig endpoint) {
        this(endpoint, idOf(endpoint), -1, host -> { }, new int[1], 0, NOT_ADDED, false, null);
    }

    /**
     * A host known as {@code id} ({@link #idOf} of {@code endpoint}, passed so the cluster's index
     * and the host share one string) at index {@code slot} of its cluster's host sets that calls {@code healthListener} after each change of its
     * health and counts its active requests in {@code loadPage[loadOffset]} (its cell of the
     * cluster's {@link ActiveRequests}); {@code addedAtNanos} is when an update added it (a cluster
     * clock reading, for slow start), or {@link #NOT_ADDED}; a host {@code pendingFirstCheck}
     * starts out of rotation until its first health verdict. A host with a {@code logical} address
     * (of a {@code logical_dns} cluster) keeps its name unresolved and connects where {@code logical} says.
     */
    public Host(EndpointConfig endpoint, String id, int slot, Consumer<Host> healthListener, int[] loadPage, int loadOffset,
            long addedAtNanos, boolean pendingFirstCheck, LogicalAddress logical) {
        this(logical != null ? InetSocketAddress.createUnresolved(endpoint.address(), endpoint.port())
                        : new InetSocketAddress(endpoint.address(), endpoint.port()), endpoint, id,
                new LiveState(Objects.requireNonNull(healthListener, "healthListener"), loadPage, loadOffset,
                        pendingFirstCheck),
                addedAtNanos, slot, logical);
    }

    private Host(InetSocketAddress address, EndpointConfig endpoint, String id, LiveState live, long addedAtNanos,
            int slot, LogicalAddress logical) {
        this.address = address;
        this.weight = endpoint.weight();
        this.labels = endpoint.labels();
        this.id = id;
        this.live = live;
        this.addedAtNanos = addedAtNanos;
        this.slot = slot;
        this.logical = logical;
    }

    /** The key that identifies an endpoint across configuration updates: {@code address:port}. */
    public static String idOf(EndpointConfig endpoint) {
        return endpoint.address() + ":" + endpoint.port();
    }

    /** This host with the weight and labels of {@code endpoint} (same address), keeping health and load. */
    public Host withEndpoint(EndpointConfig endpoint) {
        if (!idOf(endpoint).equals(id)) {
            throw new IllegalArgumentException("endpoint: " + idOf(endpoint) + " (expected " + id + ")");
        }
        return new Host(address, endpoint, id, live, addedAtNanos, slot, logical);
    }

    /** Whether {@code other} is a version of this host (same health and load), not just the same address. */
    public boolean sharesStateWith(Host other) {
        return live == other.live;
    }

    /** Its index in its cluster's host sets, or -1 for a host of no cluster. */
    public int slot() {
        return slot;
    }

    /**
     * The host's address as configured, which identifies it: resolved, except for the host of a
     * {@code logical_dns} cluster, whose name stays unresolved (see {@link #connectAddress()}).
     */
    public InetSocketAddress address() {
        return address;
    }

    /**
     * Where a new connection to this host goes: its {@link #address()}, or for the host of a
     * {@code logical_dns} cluster the first address of the latest answer for its name.
     */
    public InetSocketAddress connectAddress() {
        return logical == null ? address : logical.current();
    }

    /** {@code address:port} as configured; used in logs, metrics and the admin API. */
    public String id() {
        return id;
    }

    public int weight() {
        return weight;
    }

    public Map<String, String> labels() {
        return labels;
    }

    /**
     * When an update added this host to its running cluster, on the cluster's nanosecond clock,
     * or {@link #NOT_ADDED} for a host of the cluster's first version; slow start ramps from it.
     */
    public long addedAtNanos() {
        return addedAtNanos;
    }

    /** Whether active health checking (or an operator) considers the host healthy. */
    public boolean healthy() {
        return live.healthy;
    }

    /**
     * Whether the host's cluster checks health and has had no verdict on this host yet: such a host
     * takes no traffic and, as Envoy's excluded hosts, does not count towards the panic threshold.
     */
    public boolean pendingFirstCheck() {
        return live.pending;
    }

    /**
     * Marks the host (un)healthy, ending any wait for its first check; the cluster republishes
     * its available hosts when this changes {@link #available()} or ends the wait. Called on the
     * control thread.
     */
    public void healthy(boolean healthy) {
        boolean wasPending = live.pending;
        live.pending = false;
        change(true, healthy, wasPending);
    }

    /**
     * Takes over the health verdict of {@code before} (the host of the same id in the cluster a
     * reload replaced), without telling the cluster: only for a host not yet published.
     */
    public void inheritVerdict(Host before) {
        if (!before.pendingFirstCheck()) {
            live.pending = false;
            live.healthy = before.healthy();
        }
    }

    /** Whether outlier detection has taken the host out of rotation for now. */
    public boolean ejected() {
        return live.ejected;
    }

    /**
     * Ejects or returns the host; the cluster republishes its available hosts on a change. Called
     * on the control thread.
     */
    public void ejected(boolean ejected) {
        change(false, ejected, false);
    }

    /** Whether the host may take requests: healthy and not ejected. */
    public boolean available() {
        return live.healthy && !live.ejected;
    }

    /**
     * Sets the health flag (or, when {@code health} is false, the ejection flag) and tells the
     * cluster when {@link #available()} changed or {@code endedWait} (the first verdict came).
     */
    private void change(boolean health, boolean value, boolean endedWait) {
        boolean before = available();
        if (health) {
            live.healthy = value;
        } else {
            live.ejected = value;
        }
        if (endedWait || before != available()) {
            live.healthListener.accept(this);
        }
    }

    /** Requests sent to this host and not yet answered, across all event loops. */
    public int activeRequests() {
        return ActiveRequests.read(live.loadPage, live.loadOffset);
    }

    /** Counts a request sent; MUST be paired with exactly one {@link #requestFinished()}. */
    public void requestStarted() {
        ActiveRequests.add(live.loadPage, live.loadOffset, 1);
    }

    public void requestFinished() {
        ActiveRequests.add(live.loadPage, live.loadOffset, -1);
    }

    /** What the host served: requests, errors and open connections, shared by its versions. */
    public HostMeters meters() {
        return live.meters;
    }

    @Override
    public String toString() {
        return id;
    }

    /** What a host's versions share. */
    private static final class LiveState {

        private final Consumer<Host> healthListener;
        private final int[] loadPage;
        private final int loadOffset;
        private final HostMeters meters = new HostMeters();
        private volatile boolean healthy;
        private volatile boolean ejected;
        private volatile boolean pending;

        LiveState(Consumer<Host> healthListener, int[] loadPage, int loadOffset, boolean pending) {
            this.healthListener = healthListener;
            this.loadPage = loadPage;
            this.loadOffset = loadOffset;
            this.pending = pending;
            this.healthy = !pending;
        }
    }
}
