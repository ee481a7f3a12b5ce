package io.tollgate.router.cluster;

import io.tollgate.router.host.ActiveRequests;
import io.tollgate.router.host.Host;
import io.tollgate.router.lb.Candidates;
import java.util.Arrays;
import java.util.function.Function;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * Candidates as a bitmap of host indices over a {@link HostSet}'s slots, with the bitmap's
 * members unpacked by rank: rank {@code r} is the {@code r}-th set bit, an array read rather
 * than a {@link RoaringBitmap#select} (which scans up to 1024 words of a dense container). With
 * unequal weights the cumulative weights by rank are kept too, so a weighted choice is a binary
 * search. One value derived by a load balancer (its hash ring or table) is kept with them. The
 * hosts' active-request counts are read from the cluster's dense {@link ActiveRequests} by slot,
 * so a least-request choice never touches a host object it does not return.
 */
final class HostCandidates implements Candidates {

    private final Host[] slots;
    /** The counts of the hosts in {@code slots}, or null for hosts of no cluster (each keeps its own). */
    private final ActiveRequests loads;
    private final RoaringBitmap members;
    private final int[] slotByRank;
    private final long totalWeight;
    /** {@code cumulative[r]} = sum of the weights of ranks 0..r; null when weights are uniform. */
    private final long[] cumulative;
    /** False for the panic candidates, which hold hosts that were unavailable when published. */
    private final boolean availableWhenPublished;
    private volatile Derived derived;

    /** A load balancer's value for these candidates and the function that made it. */
    private record Derived(Object by, Object value) {
    }

    private HostCandidates(Host[] slots, ActiveRequests loads, RoaringBitmap members, int[] slotByRank,
            long totalWeight, long[] cumulative, boolean availableWhenPublished) {
        this.slots = slots;
        this.availableWhenPublished = availableWhenPublished;
        this.loads = loads;
        this.members = members;
        this.slotByRank = slotByRank;
        this.totalWeight = totalWeight;
        this.cumulative = cumulative;
    }

    /**
     * The candidates of {@code members} (host indices into {@code slots}, which the caller MUST
     * NOT change afterwards), or null when there are none; {@code loads} holds the hosts' active
     * requests by slot, or is null when each host keeps its own.
     */
    static HostCandidates of(Host[] slots, ActiveRequests loads, RoaringBitmap members, boolean uniformWeights) {
        return of(slots, loads, members, uniformWeights, null);
    }

    /**
     * {@link #of(Host[], ActiveRequests, RoaringBitmap, boolean)}, reusing the ranks of {@code previous} (the
     * candidates of an earlier version, or null) when weights are uniform and the members are
     * the same: an update that leaves a large set's membership alone (a relabel, a host removed
     * and another added at its index) then costs no unpacking of that set.
     */
    static HostCandidates of(Host[] slots, ActiveRequests loads, RoaringBitmap members, boolean uniformWeights,
            HostCandidates previous) {
        int size = members.getCardinality();
        if (size == 0) {
            return null;
        }
        if (uniformWeights) {
            long total = (long) size * slots[members.first()].weight();
            boolean sameMembers = previous != null && previous.cumulative == null && previous.members.equals(members);
            int[] slotByRank = sameMembers ? previous.slotByRank : members.toArray();
            return new HostCandidates(slots, loads, members, slotByRank, total, null, true);
        }
        long[] cumulative = new long[size];
        long sum = 0;
        IntIterator it = members.getIntIterator();
        for (int rank = 0; it.hasNext(); rank++) {
            sum += slots[it.next()].weight();
            cumulative[rank] = sum;
        }
        return new HostCandidates(slots, loads, members, members.toArray(), sum, cumulative, true);
    }

    /**
     * The candidates of every host in {@code occupied}, available or not (for panic mode), or null
     * when there are none: {@link #available} then asks each host.
     */
    static HostCandidates ofEveryHost(Host[] slots, ActiveRequests loads, RoaringBitmap occupied,
            boolean uniformWeights) {
        HostCandidates all = of(slots, loads, occupied, uniformWeights);
        return all == null ? null
                : new HostCandidates(slots, loads, occupied, all.slotByRank, all.totalWeight, all.cumulative, false);
    }

    /** The host indices; MUST NOT be modified. */
    RoaringBitmap members() {
        return members;
    }

    @Override
    public int size() {
        return slotByRank.length;
    }

    @Override
    public Host host(int rank) {
        return slots[slotByRank[rank]];
    }

    /**
     * True without a look at the host when these are the available hosts of a version: a host
     * that becomes unavailable is left out of the next version, published at once.
     */
    @Override
    public boolean available(int rank) {
        return availableWhenPublished || host(rank).available();
    }

    @Override
    public int activeRequests(int rank) {
        return loads == null ? host(rank).activeRequests() : loads.get(slotByRank[rank]);
    }

    @Override
    public int weight(int rank) {
        if (cumulative == null) {
            return (int) (totalWeight / slotByRank.length);
        }
        return (int) (rank == 0 ? cumulative[0] : cumulative[rank] - cumulative[rank - 1]);
    }

    @Override
    public boolean uniformWeights() {
        return cumulative == null;
    }

    @Override
    public long totalWeight() {
        return totalWeight;
    }

    @Override
    public Host hostAtWeight(long point) {
        if (cumulative == null) {
            return host((int) (point / (totalWeight / slotByRank.length)));
        }
        int found = Arrays.binarySearch(cumulative, point);
        int rank = found >= 0 ? found + 1 : -found - 1;
        return host(rank);
    }

    /** Whether a load balancer's derived value (its hash ring or table) is built already. */
    boolean hasDerived() {
        return derived != null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T derived(Function<? super Candidates, ? extends T> derive) {
        Derived kept = derived;
        if (kept == null || kept.by() != derive) {
            kept = new Derived(derive, derive.apply(this));
            derived = kept;
        }
        return (T) kept.value();
    }
}
