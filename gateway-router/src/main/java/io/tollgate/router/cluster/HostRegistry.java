package io.tollgate.router.cluster;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The bookkeeping of a cluster's single writer: which index each host id holds, which indices
 * are free for reuse (so bitmaps stay dense), and how many hosts have each weight. Not
 * thread-safe: the owner MUST hold its lock.
 */
final class HostRegistry {

    private final Map<String, Integer> slotById = new HashMap<>();
    private final Map<Integer, Integer> hostsByWeight = new HashMap<>();
    private int[] free = new int[8];
    private int freeCount;
    private int nextSlot;

    /** The index of host {@code id}, or -1. */
    int slotOf(String id) {
        Integer slot = slotById.get(id);
        return slot == null ? -1 : slot;
    }

    /** Gives {@code id} an index, reusing a freed one first. */
    int assign(String id, int weight) {
        int slot = freeCount > 0 ? free[--freeCount] : nextSlot++;
        slotById.put(id, slot);
        hostsByWeight.merge(weight, 1, Integer::sum);
        return slot;
    }

    /** Frees the index of {@code id}; returns it, or -1 when {@code id} holds none. */
    int release(String id, int weight) {
        Integer slot = slotById.remove(id);
        if (slot == null) {
            return -1;
        }
        hostsByWeight.computeIfPresent(weight, (w, count) -> count == 1 ? null : count - 1);
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, free.length * 2);
        }
        free[freeCount++] = slot;
        return slot;
    }

    void reweight(int from, int to) {
        hostsByWeight.computeIfPresent(from, (w, count) -> count == 1 ? null : count - 1);
        hostsByWeight.merge(to, 1, Integer::sum);
    }

    /** One past the highest index ever given. */
    int slotLimit() {
        return nextSlot;
    }

    boolean uniformWeights() {
        return hostsByWeight.size() <= 1;
    }
}
