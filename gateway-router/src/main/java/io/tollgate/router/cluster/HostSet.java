package io.tollgate.router.cluster;

import io.tollgate.router.host.ActiveRequests;
import io.tollgate.router.host.Host;
import io.tollgate.router.lb.Candidates;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.roaringbitmap.RoaringBitmap;

/**
 * One immutable version of a cluster's hosts, each at a stable index (its slot) so that subsets
 * can be bitmaps of indices. The healthy hosts are precomputed as {@link Candidates}, so a
 * request never re-scans the hosts. A change produces a new version; readers of the old one are
 * not disturbed.
 */
public final class HostSet {

    private final Host[] slots;
    private final ActiveRequests loads;
    private final RoaringBitmap occupied;
    private final RoaringBitmap healthy;
    private final boolean uniformWeights;
    private final HostCandidates healthyCandidates;
    private final int size;
    private volatile HostCandidates allCandidates;

    /**
     * A version over {@code slots} (null where free) whose hosts count their active requests in
     * {@code loads} (null when each host keeps its own); the caller hands over the array and
     * bitmaps and MUST NOT change them afterwards.
     */
    HostSet(Host[] slots, ActiveRequests loads, RoaringBitmap occupied, RoaringBitmap healthy, boolean uniformWeights) {
        this(slots, loads, occupied, healthy, uniformWeights, null);
    }

    /**
     * A version that takes the ranks of the healthy hosts from {@code previous} (an earlier
     * version, or null) when they are the same hosts; see {@link HostCandidates#of(Host[],
     * ActiveRequests, RoaringBitmap, boolean, HostCandidates)}.
     */
    HostSet(Host[] slots, ActiveRequests loads, RoaringBitmap occupied, RoaringBitmap healthy, boolean uniformWeights,
            HostSet previous) {
        this.slots = slots;
        this.loads = loads;
        this.occupied = occupied;
        this.healthy = healthy;
        this.uniformWeights = uniformWeights;
        this.healthyCandidates = HostCandidates.of(slots, loads, healthy, uniformWeights,
                previous == null ? null : previous.healthyCandidates);
        this.size = occupied.getCardinality();
    }

    /** The hosts of {@code hosts} (each keeping its own load) at indices 0, 1, 2 ... in that order. */
    public static HostSet of(List<Host> hosts) {
        Host[] slots = hosts.toArray(Host[]::new);
        RoaringBitmap occupied = RoaringBitmap.bitmapOfRange(0, slots.length);
        RoaringBitmap healthy = new RoaringBitmap();
        boolean uniform = true;
        for (int i = 0; i < slots.length; i++) {
            if (slots[i].available()) {
                healthy.add(i);
            }
            uniform &= slots[i].weight() == slots[0].weight();
        }
        return new HostSet(slots, null, occupied, healthy, uniform);
    }

    /** The number of hosts. */
    public int size() {
        return size;
    }

    /**
     * Every host, available or not, for panic mode; built on first use, by the writer when it
     * publishes a version in panic, since a cluster in panic is the exception.
     */
    Candidates allCandidates() {
        HostCandidates all = allCandidates;
        if (all == null) {
            all = HostCandidates.ofEveryHost(slots, loads, occupied, uniformWeights);
            allCandidates = all;
        }
        return all;
    }

    /** Every host, healthy or not, by index. */
    public List<Host> hosts() {
        List<Host> hosts = new ArrayList<>(size());
        occupied.forEach((int slot) -> hosts.add(slots[slot]));
        return hosts;
    }

    /** Whether the host at index {@code slot} (if any) has {@code address}. */
    boolean hasAddressAt(int slot, InetSocketAddress address) {
        return slot >= 0 && slot < slots.length && slots[slot] != null && slots[slot].address().equals(address);
    }

    /** The healthy hosts, or null when there is none. */
    public Candidates healthy() {
        return healthyCandidates;
    }

    HostCandidates healthyCandidates() {
        return healthyCandidates;
    }

    /** The slots array; MUST NOT be modified. */
    Host[] slots() {
        return slots;
    }

    /** Where the hosts count their active requests, or null when each host keeps its own. */
    ActiveRequests loads() {
        return loads;
    }

    /** The indices in use; MUST NOT be modified. */
    RoaringBitmap occupied() {
        return occupied;
    }

    /** The indices of healthy hosts; MUST NOT be modified. */
    RoaringBitmap healthyIndices() {
        return healthy;
    }

    boolean uniformWeights() {
        return uniformWeights;
    }
}
