package io.tollgate.router.lb;

import io.tollgate.router.host.Host;
import java.util.Arrays;

/**
 * A Maglev lookup table (Eisenbud et al., NSDI 2016) over one {@link Candidates} instance, with
 * weights as Envoy adds them: a prime number of slots, each holding a host's rank, filled by the
 * hosts in turns, each host claiming the next free slot of its own permutation of the table
 * ({@code offset + j * skip}, both from its id). A host of weight {@code w} takes a turn in
 * every round where the rounds so far times {@code w} reach the turns it took times the largest
 * weight, so its share of slots follows its weight. A lookup is one array read.
 */
final class MaglevTable {

    private final int[] ranks;

    private MaglevTable(int[] ranks) {
        this.ranks = ranks;
    }

    static MaglevTable build(Candidates candidates, int tableSize) {
        int size = candidates.size();
        boolean uniform = candidates.uniformWeights();
        long[] offsets = new long[size];
        long[] skips = new long[size];
        long[] weights = new long[size];
        long maxWeight = 1;
        for (int rank = 0; rank < size; rank++) {
            Host host = candidates.host(rank);
            long hash = Hashing.chars(host.id());
            offsets[rank] = Long.remainderUnsigned(hash, tableSize);
            skips[rank] = Long.remainderUnsigned(Hashing.mix(hash), tableSize - 1) + 1;
            weights[rank] = uniform ? 1 : host.weight();
            maxWeight = Math.max(maxWeight, weights[rank]);
        }
        int[] ranks = new int[tableSize];
        Arrays.fill(ranks, -1);
        long[] next = new long[size];
        long[] target = new long[size];
        int filled = 0;
        for (long round = 0; ; round++) {
            for (int rank = 0; rank < size; rank++) {
                if (round * weights[rank] < target[rank]) {
                    continue;
                }
                target[rank] += maxWeight;
                int slot = (int) ((offsets[rank] + skips[rank] * next[rank]) % tableSize);
                while (ranks[slot] >= 0) {
                    next[rank]++;
                    slot = (int) ((offsets[rank] + skips[rank] * next[rank]) % tableSize);
                }
                ranks[slot] = rank;
                next[rank]++;
                if (++filled == tableSize) {
                    return new MaglevTable(ranks);
                }
            }
        }
    }

    /** The host of {@code hash}. */
    Host host(Candidates candidates, long hash) {
        return candidates.host(ranks[(int) Long.remainderUnsigned(hash, ranks.length)]);
    }
}
