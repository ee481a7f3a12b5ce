package io.tollgate.router.cluster;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntPredicate;

/**
 * The bookkeeping of a cluster's single writer: which index each host id holds, which indices
 * are free for reuse (so bitmaps stay dense), and how many hosts have each weight. An index whose
 * removed host still has requests in flight is reused only once they have finished, so a new host
 * never inherits another's load. Not thread-safe: only the cluster's one writer uses it.
 */
final class HostRegistry {

    private final Map<String, Integer> slotById = new HashMap<>();
    private final Map<Integer, Integer> hostsByWeight = new HashMap<>();
    private final IntPredicate idle;
    private int[] free = new int[8];
    private int freeCount;
    private int[] draining = new int[8];
    private int drainingCount;
    private int nextSlot;

    /** {@code idle} tells whether the host last at an index has no request in flight. */
    HostRegistry(IntPredicate idle) {
        this.idle = Objects.requireNonNull(idle, "idle");
    }

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
        if (idle.test(slot)) {
            free = push(free, freeCount++, slot);
        } else {
            draining = push(draining, drainingCount++, slot);
        }
        return slot;
    }

    /** Makes the draining indices whose requests have all finished free for reuse. */
    void reclaimDrained() {
        int kept = 0;
        for (int i = 0; i < drainingCount; i++) {
            int slot = draining[i];
            if (idle.test(slot)) {
                free = push(free, freeCount++, slot);
            } else {
                draining[kept++] = slot;
            }
        }
        drainingCount = kept;
    }

    /** {@code stack} with {@code value} at {@code index}, grown when full. */
    private static int[] push(int[] stack, int index, int value) {
        int[] target = index == stack.length ? Arrays.copyOf(stack, stack.length * 2) : stack;
        target[index] = value;
        return target;
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
