package io.tollgate.router.cluster;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.DnsConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.RoutingPriority;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.router.breaker.PriorityCircuitBreakers;
import io.tollgate.router.health.PanicThreshold;
import io.tollgate.router.host.ActiveRequests;
import io.tollgate.router.host.Host;
import io.tollgate.router.host.LogicalAddress;
import io.tollgate.router.lb.Candidates;
import io.tollgate.router.lb.HashPolicy;
import io.tollgate.router.lb.LoadBalancer;
import io.tollgate.router.lb.LoadBalancers;
import io.tollgate.router.originaldst.OriginalDstHosts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.roaringbitmap.RoaringBitmap;

/**
 * A named set of upstream hosts with the load balancer that spreads requests over them. The
 * hosts (and their subset index) are an immutable version published through one volatile
 * field: a request reads it once, and endpoint or health changes build the next version off the
 * event loops, at a cost proportional to the hosts that changed.
 *
 * <p>One writer: in a gateway every change ({@link #update}, {@link #replaceEndpoints}, a host's
 * health or ejection) runs on the control thread, so no lock is needed and an event loop never
 * waits on one; event loops hand their verdicts to that thread. With health checking configured,
 * a new host waits out of rotation for its first verdict ({@link Host#pendingFirstCheck()}).
 */
public final class Cluster {

    /** How often {@link #chooseExcluding} asks the load balancer before walking the candidates. */
    private static final int RESELECT_ATTEMPTS = 3;

    private final LoadBalancer loadBalancer;
    private final SubsetPolicy subsetPolicy;
    private final SubsetStats subsetStats = new SubsetStats();
    private final PriorityCircuitBreakers circuitBreakers;
    /** The hosts' active requests by slot, where load balancers read them. */
    private final ActiveRequests loads = new ActiveRequests();
    /** Only the writer uses it. */
    private final HostRegistry registry = new HostRegistry(slot -> loads.get(slot) == 0);
    private final LongSupplier nanoClock;
    /** One listener shared by every host, rather than a lambda per host. */
    private final Consumer<Host> healthListener = this::healthChanged;

    /**
     * Each host's endpoint at its index (null where free), so that an update lists the endpoints
     * in one pass over a dense array rather than through every host object. Only the writer uses it.
     */
    private EndpointConfig[] endpointBySlot;

    /** Whether new hosts wait for their first health check before taking traffic. */
    private final boolean healthChecked;
    /** Where the host of a {@code logical_dns} cluster connects; null for other clusters. */
    private final LogicalAddress logical;
    /** The hosts of an {@code original_dst} cluster, made per destination; null for other clusters. */
    private final OriginalDstHosts originalDst;
    /** Where health changes are republished: the writer's own thread, later (or at once). */
    private final Executor republisher;
    /** The slots whose host changed health since the last republication; only the writer uses it. */
    private final RoaringBitmap changedHealth = new RoaringBitmap();
    /** Whether a republication is queued on {@link #republisher}; only the writer uses it. */
    private boolean republishQueued;
    private volatile Version version;

    /**
     * One published state: the configuration with the endpoints it applied, the hosts, with
     * subset load balancing their index, the hosts waiting for their first health check
     * ({@code pending}), left out of the panic threshold's count, and, without subsets, the
     * candidates every request picks from ({@code candidates}: the healthy hosts, every host
     * when too few are healthy (panic), null when none is), decided once by the writer.
     */
    private record Version(ClusterConfig config, HostSet hosts, SubsetIndex subsets, RoaringBitmap pending,
            Candidates candidates) {

        Version(ClusterConfig config, HostSet hosts, SubsetIndex subsets, RoaringBitmap pending) {
            this(config, hosts, subsets, pending, subsets == null ? candidates(config, hosts, pending) : null);
        }

        private static Candidates candidates(ClusterConfig config, HostSet hosts, RoaringBitmap pending) {
            Candidates available = hosts.healthy();
            if (available == null) {
                return null;
            }
            int total = hosts.size() - pending.getCardinality();
            boolean panic = available.size() < total
                    && PanicThreshold.panics(available.size(), total, config.panicThresholdPercent());
            return panic ? hosts.allCandidates() : available;
        }
    }

    /** A cluster that republishes each health change at once, on the thread that made it. */
    public Cluster(ClusterConfig config) {
        this(config, System::nanoTime, null, Runnable::run);
    }

    /**
     * A cluster whose health changes are republished by a task given to {@code republisher},
     * which MUST run it on the writer's thread (the control thread), so that a burst of verdicts
     * queued there before it costs one rebuild. When {@code previous} is not null, this cluster
     * replaces it on a reload (same name, other settings): its hosts already known to {@code
     * previous} keep their health verdict rather than waiting for a first check again.
     */
    public Cluster(ClusterConfig config, Cluster previous, Executor republisher) {
        this(config, System::nanoTime, previous, republisher);
    }

    /** A cluster whose slow start reads {@code nanoClock} (a fake one in tests). */
    public Cluster(ClusterConfig config, LongSupplier nanoClock) {
        this(config, nanoClock, null, Runnable::run);
    }

    private Cluster(ClusterConfig config, LongSupplier nanoClock, Cluster previous, Executor republisher) {
        Objects.requireNonNull(config, "config");
        this.republisher = Objects.requireNonNull(republisher, "republisher");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.loadBalancer = LoadBalancers.create(config.lbPolicy(), config.loadBalancing(), nanoClock);
        this.subsetPolicy = config.subsetLbConfig().map(SubsetPolicy::new).orElse(null);
        this.circuitBreakers = new PriorityCircuitBreakers(config.circuitBreakers());
        this.healthChecked = config.healthCheck().isPresent();
        this.logical = logicalAddress(config, previous);
        this.originalDst = config.originalDst().map(o -> new OriginalDstHosts(o, nanoClock)).orElse(null);
        LabelInterner interner = new LabelInterner();
        List<EndpointConfig> endpoints = config.endpoints();
        Host[] slots = new Host[endpoints.size()];
        endpointBySlot = new EndpointConfig[slots.length];
        RoaringBitmap healthy = new RoaringBitmap();
        RoaringBitmap pending = new RoaringBitmap();
        for (EndpointConfig given : endpoints) {
            EndpointConfig endpoint = interner.intern(given);
            String id = Host.idOf(endpoint);
            if (registry.slotOf(id) >= 0) {
                throw new IllegalArgumentException("endpoints: " + id + " twice (expected each address:port once)");
            }
            int slot = registry.assign(id, endpoint.weight());
            Host host = newHost(endpoint, id, slot, Host.NOT_ADDED);
            Host before = previous == null ? null : previous.host(id);
            if (before != null) {
                host.inheritVerdict(before);
            }
            slots[slot] = host;
            endpointBySlot[slot] = given;
            if (host.pendingFirstCheck()) {
                pending.add(slot);
            } else if (host.available()) {
                healthy.add(slot);
            }
        }
        HostSet hosts = new HostSet(slots, loads, RoaringBitmap.bitmapOfRange(0, slots.length), healthy,
                registry.uniformWeights());
        Version first = new Version(config, hosts,
                subsetPolicy == null ? null : SubsetIndex.build(hosts, subsetPolicy), pending);
        prepare(first);
        this.version = first;
    }

    /**
     * A {@code logical_dns} cluster's address: the one of {@code previous} when it resolved the same
     * host (a reload rebuilding the cluster keeps where it connects), else a new one; null for
     * other clusters.
     */
    private static LogicalAddress logicalAddress(ClusterConfig config, Cluster previous) {
        if (config.dns().isEmpty() || config.dns().get().type() != DnsConfig.Type.LOGICAL) {
            return null;
        }
        boolean same = previous != null && previous.logical != null && !config.endpoints().isEmpty()
                && config.endpoints().equals(previous.config().endpoints());
        return same ? previous.logical : new LogicalAddress();
    }

    public String name() {
        return version.config().name();
    }

    /**
     * Where the host of a {@code logical_dns} cluster connects, which its resolver sets before it
     * adds the host; null for other clusters.
     */
    public LogicalAddress logicalAddress() {
        return logical;
    }

    /**
     * The configuration of the current version: the settings the cluster was built with and the
     * endpoints last applied (by {@link #replaceEndpoints} as listed, by {@link #update} in host
     * index order).
     */
    public ClusterConfig config() {
        return version.config();
    }

    /** Every host of the current version, healthy or not. */
    public List<Host> hosts() {
        return version.hosts().hosts();
    }

    /** The host of the current version known as {@code id} ({@code address:port}), or null; for the writer. */
    private Host host(String id) {
        int slot = registry.slotOf(id);
        return slot < 0 ? null : version.hosts().slots()[slot];
    }

    /**
     * Whether the current version still has a host at the address of {@code host}, which was one
     * of this cluster's hosts: in constant time and from any thread, so that an event loop can
     * check its upstream pools after a push without going over every host.
     */
    public boolean stillServes(Host host) {
        if (originalDst != null) {
            return originalDst.serves(host);
        }
        return version.hosts().hasAddressAt(host.slot(), host.address());
    }

    /** The current version of the hosts. */
    public HostSet hostSet() {
        return version.hosts();
    }

    /**
     * The hosts of an {@code original_dst} cluster (one per destination, with what they refused),
     * or null for a cluster of configured endpoints.
     */
    public OriginalDstHosts originalDestinations() {
        return originalDst;
    }

    /** How subset load balancing has resolved requests; all zero without subsets. */
    public SubsetStats subsetStats() {
        return subsetStats;
    }

    /**
     * The live limits of the default priority on the cluster's connections, pending requests,
     * requests and retries; connection pools, shared by every priority, count under it.
     */
    public CircuitBreakers circuitBreakers() {
        return circuitBreakers.of(RoutingPriority.DEFAULT);
    }

    /** The live limits of {@code priority}: a request takes its request and retries from those of its route's priority. */
    public CircuitBreakers circuitBreakers(RoutingPriority priority) {
        return circuitBreakers.of(priority);
    }

    /** {@link #choose(RouteRequest, Map)} without a route metadata match (subset headers still count). */
    public Host choose(RouteRequest request) {
        return choose(request, Map.of());
    }

    /**
     * Chooses an available host for a request, or returns null when there is none to choose from
     * (the caller answers 503, no healthy upstream). {@code metadataMatch} is the route's
     * metadata match, used when the cluster balances by subsets. When too few hosts are available
     * (below the panic threshold), every host is a candidate.
     */
    public Host choose(RouteRequest request, Map<String, String> metadataMatch) {
        return choose(request, metadataMatch, null);
    }

    /**
     * {@link #choose(RouteRequest, Map)} with the route's hash policy ({@code Route.hashPolicy()}),
     * which, when not null, replaces the cluster's for {@code ring_hash} and {@code maglev}.
     */
    public Host choose(RouteRequest request, Map<String, String> metadataMatch, HashPolicy routeHashPolicy) {
        if (originalDst != null) {
            return originalDst.choose(request);
        }
        Candidates candidates = candidates(request, metadataMatch);
        return candidates == null ? null : loadBalancer.choose(candidates, request, routeHashPolicy);
    }

    /**
     * Chooses a host for a retry: like {@link #choose(RouteRequest, Map)}, but a host {@code
     * excluded} rejects (one already tried) is only returned when the candidates hold no other.
     * The load balancer is asked a few times first; then the candidates are walked from a random
     * rank, which only happens when the balancer keeps landing on excluded hosts.
     */
    public Host chooseExcluding(RouteRequest request, Map<String, String> metadataMatch, Predicate<Host> excluded) {
        if (originalDst != null) {
            return originalDst.choose(request);
        }
        Candidates candidates = candidates(request, metadataMatch);
        if (candidates == null) {
            return null;
        }
        Host chosen = loadBalancer.choose(candidates, request);
        for (int i = 0; i < RESELECT_ATTEMPTS && chosen != null && excluded.test(chosen); i++) {
            chosen = loadBalancer.choose(candidates, request);
        }
        if (chosen == null || !excluded.test(chosen)) {
            return chosen;
        }
        int size = candidates.size();
        int start = ThreadLocalRandom.current().nextInt(size);
        for (int i = 0; i < size; i++) {
            Host host = candidates.host((start + i) % size);
            if (!excluded.test(host)) {
                return host;
            }
        }
        return chosen;
    }

    /**
     * The hosts {@link #choose} picks from for this request, or null when there are none: the
     * healthy hosts, or with subsets the resolved subset or fallback (counted in
     * {@link #subsetStats()}).
     */
    public Candidates candidates(RouteRequest request, Map<String, String> metadataMatch) {
        Version current = version;
        if (current.subsets() == null) {
            return current.candidates();
        }
        return current.subsets().resolve(current.hosts(), request, metadataMatch, subsetStats);
    }

    /**
     * Adds the endpoints of {@code upserts} that are new, changes the weight and labels of those
     * already present (keeping their health and load) and removes the hosts of {@code removedIds}
     * ({@code address:port}); then publishes the new version at once. Unknown ids are ignored.
     * With health checking, the new hosts wait for their first check. Called by the one writer.
     */
    public void update(Collection<EndpointConfig> upserts, Collection<String> removedIds) {
        apply(upserts, removedIds, null);
    }

    /**
     * {@link #update} whose configuration lists {@code listed} as its endpoints, or, when null,
     * the endpoints of the new hosts.
     */
    private void apply(Collection<EndpointConfig> upserts, Collection<String> removedIds, List<EndpointConfig> listed) {
        registry.reclaimDrained();
        Version current = version;
        HostSet hosts = current.hosts();
        Host[] slots = Arrays.copyOf(hosts.slots(), Math.max(hosts.slots().length,
                registry.slotLimit() + upserts.size()));
        if (endpointBySlot.length < slots.length) {
            endpointBySlot = Arrays.copyOf(endpointBySlot, slots.length);
        }
        RoaringBitmap occupied = hosts.occupied().clone();
        RoaringBitmap healthy = hosts.healthyIndices().clone();
        RoaringBitmap pending = current.pending().clone();
        List<SlotChange> changes = new ArrayList<>(upserts.size() + removedIds.size());
        LabelInterner interner = new LabelInterner();
        for (String id : removedIds) {
            int slot = registry.slotOf(id);
            if (slot < 0) {
                continue;
            }
            Host before = slots[slot];
            registry.release(id, before.weight());
            slots[slot] = null;
            endpointBySlot[slot] = null;
            occupied.remove(slot);
            healthy.remove(slot);
            pending.remove(slot);
            changes.add(new SlotChange(slot, before, null));
        }
        for (EndpointConfig given : upserts) {
            EndpointConfig endpoint = interner.intern(given);
            String id = Host.idOf(endpoint);
            int slot = registry.slotOf(id);
            if (slot < 0) {
                slot = registry.assign(id, endpoint.weight());
                Host added = newHost(endpoint, id, slot, nanoClock.getAsLong());
                slots[slot] = added;
                endpointBySlot[slot] = given;
                occupied.add(slot);
                if (healthChecked) {
                    pending.add(slot);
                } else {
                    healthy.add(slot);
                }
                changes.add(new SlotChange(slot, null, added));
                continue;
            }
            Host before = slots[slot];
            if (before.weight() == endpoint.weight() && before.labels().equals(endpoint.labels())) {
                continue;
            }
            registry.reweight(before.weight(), endpoint.weight());
            slots[slot] = before.withEndpoint(endpoint);
            endpointBySlot[slot] = given;
            changes.add(new SlotChange(slot, before, slots[slot]));
        }
        HostSet next = new HostSet(slots, loads, occupied, healthy, registry.uniformWeights(), hosts);
        List<EndpointConfig> endpoints = listed != null ? listed : compact(endpointBySlot, next.size());
        ClusterConfig config = current.config().withEndpoints(endpoints);
        publish(current, config, next, pending, changes);
    }

    /**
     * The {@code count} endpoints of {@code endpointBySlot} in index order, as an immutable list
     * that {@link ClusterConfig} keeps rather than copying it again.
     */
    private static List<EndpointConfig> compact(EndpointConfig[] endpointBySlot, int count) {
        EndpointConfig[] endpoints = new EndpointConfig[count];
        int at = 0;
        for (EndpointConfig endpoint : endpointBySlot) {
            if (endpoint != null) {
                endpoints[at++] = endpoint;
            }
        }
        return List.of(endpoints);
    }

    /**
     * Makes {@code endpoints} the whole host list: {@link #update} with the hosts no longer listed
     * removed. An endpoint given as the very object applied last time (an xDS push reuses the
     * translation of every endpoint that did not change) is unchanged and skipped; most pushes
     * list the hosts in the same order, so it is looked for at its former position first. A push
     * of many endpoints of which few changed thus costs in proportion to the changes.
     */
    public void replaceEndpoints(List<EndpointConfig> endpoints) {
        List<EndpointConfig> applied = version.config().endpoints();
        boolean[] kept = new boolean[applied.size()];
        List<EndpointConfig> moved = new ArrayList<>();
        for (int i = 0; i < endpoints.size(); i++) {
            if (i < applied.size() && endpoints.get(i) == applied.get(i)) {
                kept[i] = true;
            } else {
                moved.add(endpoints.get(i));
            }
        }
        Map<EndpointConfig, Integer> elsewhere = new IdentityHashMap<>();
        for (int i = 0; i < applied.size(); i++) {
            if (!kept[i]) {
                elsewhere.put(applied.get(i), i);
            }
        }
        List<EndpointConfig> upserts = new ArrayList<>();
        Set<String> listed = new HashSet<>();
        for (EndpointConfig endpoint : moved) {
            Integer at = elsewhere.get(endpoint);
            if (at != null) {
                kept[at] = true;
            } else {
                upserts.add(endpoint);
                listed.add(Host.idOf(endpoint));
            }
        }
        List<String> removed = new ArrayList<>();
        for (int i = 0; i < applied.size(); i++) {
            String id = kept[i] ? null : Host.idOf(applied.get(i));
            if (id != null && !listed.contains(id)) {
                removed.add(id);
            }
        }
        apply(upserts, removed, endpoints);
    }

    /**
     * Notes that {@code host} changed health or ejection, or had its first health verdict, and
     * queues a republication unless one is queued already; on the writer's thread.
     */
    private void healthChanged(Host host) {
        int slot = registry.slotOf(host.id());
        if (slot < 0 || !version.hosts().slots()[slot].sharesStateWith(host)) {
            return;
        }
        changedHealth.add(slot);
        if (!republishQueued) {
            republishQueued = true;
            republisher.execute(this::republishHealth);
        }
    }

    /** Republishes the available and pending hosts after the health changes noted since the last time. */
    private void republishHealth() {
        republishQueued = false;
        Version current = version;
        Host[] slots = current.hosts().slots();
        RoaringBitmap healthy = current.hosts().healthyIndices().clone();
        RoaringBitmap pending = current.pending().clone();
        List<SlotChange> changes = new ArrayList<>();
        changedHealth.forEach((int slot) -> {
            Host now = slot < slots.length ? slots[slot] : null;
            if (now == null) {
                return;
            }
            boolean endedWait = !now.pendingFirstCheck() && pending.checkedRemove(slot);
            boolean flipped = now.available() != healthy.contains(slot);
            if (flipped && now.available()) {
                healthy.add(slot);
            } else if (flipped) {
                healthy.remove(slot);
            }
            if (endedWait || flipped) {
                changes.add(new SlotChange(slot, now, now));
            }
        });
        changedHealth.clear();
        if (changes.isEmpty()) {
            return;
        }
        publish(current, current.config(), new HostSet(slots, loads, current.hosts().occupied(), healthy,
                current.hosts().uniformWeights()), pending, changes);
    }

    /** Host {@code id} at {@code slot}, counting its requests in that slot's cell of {@link #loads}. */
    private Host newHost(EndpointConfig endpoint, String id, int slot, long addedAtNanos) {
        return new Host(endpoint, id, slot, healthListener, loads.page(slot), ActiveRequests.offset(slot), addedAtNanos,
                healthChecked, logical);
    }

    private void publish(Version current, ClusterConfig config, HostSet next, RoaringBitmap pending,
            List<SlotChange> changes) {
        SubsetIndex subsets = current.subsets();
        if (subsets != null) {
            subsets = next.uniformWeights() == current.hosts().uniformWeights()
                    ? subsets.update(next, changes)
                    : SubsetIndex.build(next, subsetPolicy);
        }
        Version published = new Version(config, next, subsets, pending);
        prepare(published);
        version = published;
    }

    /**
     * Lets the load balancer build what it derives from the available hosts (a hash ring or
     * table) for {@code next} and each of its subsets here, on the writer's thread, before
     * {@code next} is published: an event loop never builds one on a request's path. Subsets whose
     * hosts did not change keep what was built for them.
     */
    private void prepare(Version next) {
        Candidates healthy = next.hosts().healthy();
        if (healthy != null) {
            loadBalancer.prepare(healthy);
        }
        if (next.candidates() != null && next.candidates() != healthy) {
            loadBalancer.prepare(next.candidates());
        }
        if (next.subsets() != null) {
            next.subsets().forEachSubset(loadBalancer::prepare);
        }
    }
}
