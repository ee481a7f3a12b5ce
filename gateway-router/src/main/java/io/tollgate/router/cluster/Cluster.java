package io.tollgate.router.cluster;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.health.PanicThreshold;
import io.tollgate.router.lb.Candidates;
import io.tollgate.router.lb.LoadBalancer;
import io.tollgate.router.lb.LoadBalancers;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.roaringbitmap.RoaringBitmap;

/**
 * A named set of upstream hosts with the load balancer that spreads requests over them. The
 * hosts (and their subset index) are an immutable version published through one volatile
 * field: a request reads it once, and endpoint or health changes build the next version off the
 * event loops, at a cost proportional to the hosts that changed.
 */
public final class Cluster {

    private final ClusterConfig config;
    private final LoadBalancer loadBalancer;
    private final SubsetPolicy subsetPolicy;
    private final SubsetStats subsetStats = new SubsetStats();
    /** Guarded by {@code this}; only the writer uses it. */
    private final HostRegistry registry = new HostRegistry();
    /** One listener shared by every host, rather than a lambda per host. */
    private final Consumer<Host> healthListener = this::healthChanged;
    private volatile Version version;

    /** One published state: the hosts and, with subset load balancing, their index. */
    private record Version(HostSet hosts, SubsetIndex subsets) {
    }

    public Cluster(ClusterConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.loadBalancer = LoadBalancers.create(config.lbPolicy());
        this.subsetPolicy = config.subsetLbConfig().map(SubsetPolicy::new).orElse(null);
        LabelInterner interner = new LabelInterner();
        List<EndpointConfig> endpoints = config.endpoints();
        Host[] slots = new Host[endpoints.size()];
        RoaringBitmap healthy = new RoaringBitmap();
        for (EndpointConfig endpoint : endpoints) {
            Host host = new Host(interner.intern(endpoint), healthListener);
            if (registry.slotOf(host.id()) >= 0) {
                throw new IllegalArgumentException("endpoints: " + host.id() + " twice (expected each address:port once)");
            }
            int slot = registry.assign(host.id(), host.weight());
            slots[slot] = host;
            healthy.add(slot);
        }
        HostSet hosts = new HostSet(slots, RoaringBitmap.bitmapOfRange(0, slots.length), healthy,
                registry.uniformWeights());
        this.version = new Version(hosts, subsetPolicy == null ? null : SubsetIndex.build(hosts, subsetPolicy));
    }

    public String name() {
        return config.name();
    }

    /** The configuration the cluster was built from; its endpoints are the first version's. */
    public ClusterConfig config() {
        return config;
    }

    /** Every host of the current version, healthy or not. */
    public List<Host> hosts() {
        return version.hosts().hosts();
    }

    /** The current version of the hosts. */
    public HostSet hostSet() {
        return version.hosts();
    }

    /** How subset load balancing has resolved requests; all zero without subsets. */
    public SubsetStats subsetStats() {
        return subsetStats;
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
        Candidates candidates = candidates(request, metadataMatch);
        return candidates == null ? null : loadBalancer.choose(candidates, request);
    }

    /**
     * The hosts {@link #choose} picks from for this request, or null when there are none: the
     * healthy hosts, or with subsets the resolved subset or fallback (counted in
     * {@link #subsetStats()}).
     */
    public Candidates candidates(RouteRequest request, Map<String, String> metadataMatch) {
        Version current = version;
        if (current.subsets() == null) {
            HostSet hosts = current.hosts();
            Candidates available = hosts.healthyCandidates();
            if (available == null) {
                return null;
            }
            int total = hosts.size();
            boolean panic = available.size() < total
                    && PanicThreshold.panics(available.size(), total, config.panicThresholdPercent());
            return panic ? hosts.allCandidates() : available;
        }
        return current.subsets().resolve(current.hosts(), request, metadataMatch, subsetStats);
    }

    /**
     * Adds the endpoints of {@code upserts} that are new, changes the weight and labels of those
     * already present (keeping their health and load) and removes the hosts of {@code removedIds}
     * ({@code address:port}); then publishes the new version at once. Unknown ids are ignored.
     */
    public synchronized void update(Collection<EndpointConfig> upserts, Collection<String> removedIds) {
        Version current = version;
        HostSet hosts = current.hosts();
        Host[] slots = Arrays.copyOf(hosts.slots(), Math.max(hosts.slots().length,
                registry.slotLimit() + upserts.size()));
        RoaringBitmap occupied = hosts.occupied().clone();
        RoaringBitmap healthy = hosts.healthyIndices().clone();
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
            occupied.remove(slot);
            healthy.remove(slot);
            changes.add(new SlotChange(slot, before, null));
        }
        for (EndpointConfig given : upserts) {
            EndpointConfig endpoint = interner.intern(given);
            int slot = registry.slotOf(Host.idOf(endpoint));
            if (slot < 0) {
                Host added = new Host(endpoint, healthListener);
                slot = registry.assign(added.id(), added.weight());
                slots[slot] = added;
                occupied.add(slot);
                healthy.add(slot);
                changes.add(new SlotChange(slot, null, added));
                continue;
            }
            Host before = slots[slot];
            if (before.weight() == endpoint.weight() && before.labels().equals(endpoint.labels())) {
                continue;
            }
            registry.reweight(before.weight(), endpoint.weight());
            slots[slot] = before.withEndpoint(endpoint);
            changes.add(new SlotChange(slot, before, slots[slot]));
        }
        publish(current, new HostSet(slots, occupied, healthy, registry.uniformWeights(), hosts), changes);
    }

    /** Makes {@code endpoints} the whole host list: {@link #update} with the hosts no longer listed removed. */
    public synchronized void replaceEndpoints(List<EndpointConfig> endpoints) {
        Set<String> listed = new HashSet<>();
        endpoints.forEach(endpoint -> listed.add(Host.idOf(endpoint)));
        List<String> removed = new ArrayList<>();
        for (Host host : hosts()) {
            if (!listed.contains(host.id())) {
                removed.add(host.id());
            }
        }
        update(endpoints, removed);
    }

    /** Republishes the available hosts after {@code host} changed health or ejection. */
    private synchronized void healthChanged(Host host) {
        Version current = version;
        int slot = registry.slotOf(host.id());
        if (slot < 0 || !current.hosts().slots()[slot].sharesStateWith(host)) {
            return;
        }
        RoaringBitmap healthy = current.hosts().healthyIndices().clone();
        if (host.available() == healthy.contains(slot)) {
            return;
        }
        if (host.available()) {
            healthy.add(slot);
        } else {
            healthy.remove(slot);
        }
        Host now = current.hosts().slots()[slot];
        publish(current, new HostSet(current.hosts().slots(), current.hosts().occupied(), healthy,
                current.hosts().uniformWeights()), List.of(new SlotChange(slot, now, now)));
    }

    private void publish(Version current, HostSet next, List<SlotChange> changes) {
        SubsetIndex subsets = current.subsets();
        if (subsets != null) {
            subsets = next.uniformWeights() == current.hosts().uniformWeights()
                    ? subsets.update(next, changes)
                    : SubsetIndex.build(next, subsetPolicy);
        }
        version = new Version(next, subsets);
    }
}
