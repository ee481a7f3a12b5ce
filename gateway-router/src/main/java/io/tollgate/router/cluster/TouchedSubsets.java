package io.tollgate.router.cluster;

/**
 * The distinct subset paths (selector, values of its keys) an update touches, collected without
 * allocating per host: a path is remembered by its selector and the label values of the first
 * host that named it, in an open-addressing table.
 */
final class TouchedSubsets {

    private final SubsetPolicy policy;
    private int[] selectors = new int[16];
    private String[][] values = new String[16][];
    private int size;

    TouchedSubsets(SubsetPolicy policy) {
        this.policy = policy;
    }

    /** Adds the path of selector {@code s} for a host whose values by key number are {@code hostValues}. */
    void add(int s, String[] hostValues) {
        if (size * 2 >= values.length) {
            grow();
        }
        int mask = values.length - 1;
        for (int i = hash(s, hostValues) & mask; ; i = (i + 1) & mask) {
            if (values[i] == null) {
                selectors[i] = s;
                values[i] = hostValues;
                size++;
                return;
            }
            if (selectors[i] == s && samePath(s, values[i], hostValues)) {
                return;
            }
        }
    }

    int capacity() {
        return values.length;
    }

    /** The host values of entry {@code i}, or null where the table is empty. */
    String[] values(int i) {
        return values[i];
    }

    int selector(int i) {
        return selectors[i];
    }

    private int hash(int s, String[] hostValues) {
        int h = s;
        for (int key : policy.selectorKeys(s)) {
            h = h * 31 + hostValues[key].hashCode();
        }
        return h ^ (h >>> 16);
    }

    private boolean samePath(int s, String[] a, String[] b) {
        for (int key : policy.selectorKeys(s)) {
            if (!a[key].equals(b[key])) {
                return false;
            }
        }
        return true;
    }

    private void grow() {
        int[] oldSelectors = selectors;
        String[][] oldValues = values;
        selectors = new int[oldValues.length * 2];
        values = new String[oldValues.length * 2][];
        size = 0;
        for (int i = 0; i < oldValues.length; i++) {
            if (oldValues[i] != null) {
                add(oldSelectors[i], oldValues[i]);
            }
        }
    }
}
