package io.tollgate.router.host;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * The active-request counts of a cluster's hosts, kept together and indexed by host slot, so that
 * a least-request choice reads two ints of one dense store rather than two host objects and the
 * counters they point to. The counts live in pages of ints that never move once made: a host
 * keeps its cell for life, and only the cluster's single writer adds pages as slots grow.
 */
public final class ActiveRequests {

    private static final int PAGE_BITS = 10;
    private static final int PAGE_SIZE = 1 << PAGE_BITS;
    private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(int[].class);

    private volatile int[][] pages = new int[0][];

    /** The page that holds the count of {@code slot}, made if needed; only the cluster's writer calls it. */
    public int[] page(int slot) {
        int index = slot >>> PAGE_BITS;
        int[][] current = pages;
        if (index < current.length) {
            return current[index];
        }
        int[][] grown = Arrays.copyOf(current, index + 1);
        for (int i = current.length; i < grown.length; i++) {
            grown[i] = new int[PAGE_SIZE];
        }
        pages = grown;
        return grown[index];
    }

    /** Where the count of {@code slot} sits in its {@link #page}. */
    public static int offset(int slot) {
        return slot & (PAGE_SIZE - 1);
    }

    /** The count of {@code slot}, which MUST have a page. */
    public int get(int slot) {
        return read(pages[slot >>> PAGE_BITS], offset(slot));
    }

    static int read(int[] page, int offset) {
        return (int) CELLS.getVolatile(page, offset);
    }

    static void add(int[] page, int offset, int delta) {
        CELLS.getAndAdd(page, offset, delta);
    }
}
