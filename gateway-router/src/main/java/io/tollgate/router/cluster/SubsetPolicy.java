package io.tollgate.router.cluster;

import io.tollgate.core.config.SubsetLbConfig;
import io.tollgate.core.config.SubsetLbConfig.FallbackPolicy;
import io.tollgate.core.config.SubsetSelectorConfig;
import io.tollgate.core.config.SubsetSelectorConfig.Fallback;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * A cluster's {@link SubsetLbConfig} compiled for the hot path: label keys numbered in sorted
 * order, each selector a bit set of key numbers, header names precomputed. Immutable.
 */
final class SubsetPolicy {

    private final String[] keys;
    /** The header carrying each key's value, or null when values come from the route alone. */
    private final String[] headerNames;
    private final long[] selectorMasks;
    private final int[][] selectorKeys;
    private final Fallback[] selectorFallbacks;
    private final long[] fallbackMasks;
    private final FallbackPolicy fallbackPolicy;
    private final int[] defaultKeys;
    private final String[] defaultValues;

    SubsetPolicy(SubsetLbConfig config) {
        TreeSet<String> names = new TreeSet<>(config.defaultSubset().keySet());
        config.selectors().forEach(s -> names.addAll(s.keys()));
        if (names.size() > Long.SIZE) {
            throw new IllegalArgumentException("subset keys: " + names.size() + " (expected at most " + Long.SIZE + ")");
        }
        this.keys = names.toArray(String[]::new);
        this.headerNames = config.headerPrefix()
                .map(prefix -> names.stream().map(k -> prefix + k.toLowerCase(Locale.ROOT)).toArray(String[]::new))
                .orElse(null);
        List<SubsetSelectorConfig> selectors = config.selectors();
        int count = selectors.size();
        this.selectorMasks = new long[count];
        this.selectorKeys = new int[count][];
        this.selectorFallbacks = new Fallback[count];
        this.fallbackMasks = new long[count];
        for (int s = 0; s < count; s++) {
            SubsetSelectorConfig selector = selectors.get(s);
            selectorKeys[s] = selector.keys().stream().mapToInt(this::keyIndex).sorted().toArray();
            selectorMasks[s] = mask(selectorKeys[s]);
            selectorFallbacks[s] = selector.fallbackPolicy();
            fallbackMasks[s] = mask(selector.fallbackKeysSubset().stream().mapToInt(this::keyIndex).toArray());
        }
        this.fallbackPolicy = config.fallbackPolicy();
        Map<String, String> defaults = config.defaultSubset();
        this.defaultKeys = defaults.keySet().stream().mapToInt(this::keyIndex).sorted().toArray();
        this.defaultValues = new String[defaultKeys.length];
        for (int i = 0; i < defaultKeys.length; i++) {
            defaultValues[i] = defaults.get(keys[defaultKeys[i]]);
        }
    }

    private static long mask(int[] keyIndices) {
        long mask = 0;
        for (int k : keyIndices) {
            mask |= 1L << k;
        }
        return mask;
    }

    private int keyIndex(String key) {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i].equals(key)) {
                return i;
            }
        }
        throw new AssertionError("key " + key + " was collected");
    }

    int keyCount() {
        return keys.length;
    }

    String key(int index) {
        return keys[index];
    }

    /** The header that carries key {@code index}, or null when headers are not read. */
    String headerName(int index) {
        return headerNames == null ? null : headerNames[index];
    }

    int selectorCount() {
        return selectorMasks.length;
    }

    /** The selector whose key set is {@code mask}, or -1. */
    int selector(long mask) {
        for (int s = 0; s < selectorMasks.length; s++) {
            if (selectorMasks[s] == mask) {
                return s;
            }
        }
        return -1;
    }

    /** The key numbers of selector {@code s}, ascending; MUST NOT be modified. */
    int[] selectorKeys(int s) {
        return selectorKeys[s];
    }

    Fallback selectorFallback(int s) {
        return selectorFallbacks[s];
    }

    /** With {@link Fallback#KEYS_SUBSET}: the keys to retry with, as a bit set. */
    long fallbackMask(int s) {
        return fallbackMasks[s];
    }

    FallbackPolicy fallbackPolicy() {
        return fallbackPolicy;
    }

    /** Whether a default subset must be kept: some fallback may use it. */
    boolean usesDefaultSubset() {
        if (fallbackPolicy == FallbackPolicy.DEFAULT_SUBSET) {
            return true;
        }
        for (Fallback fallback : selectorFallbacks) {
            if (fallback == Fallback.DEFAULT_SUBSET) {
                return true;
            }
        }
        return false;
    }

    /** The key numbers of the default subset, ascending; MUST NOT be modified. */
    int[] defaultKeys() {
        return defaultKeys;
    }

    /** The values of the default subset, in the order of {@link #defaultKeys()}; MUST NOT be modified. */
    String[] defaultValues() {
        return defaultValues;
    }
}
