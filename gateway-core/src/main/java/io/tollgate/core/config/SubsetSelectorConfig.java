package io.tollgate.core.config;

import java.util.List;

/**
 * One key set of a {@link SubsetLbConfig}: the cluster keeps a subset for every combination of
 * values of these keys found on its hosts.
 *
 * @param keys the label keys, sorted and distinct
 * @param fallbackPolicy what this selector does when its subset is missing; {@link
 *     Fallback#NOT_DEFINED} defers to the cluster's policy
 * @param fallbackKeysSubset with {@link Fallback#KEYS_SUBSET}: the smaller key set (another
 *     selector's keys) to retry with, keeping the request's values for those keys
 */
public record SubsetSelectorConfig(List<String> keys, Fallback fallbackPolicy, List<String> fallbackKeysSubset) {

    /** A selector's own fallback, tried before the cluster's fallback policy. */
    public enum Fallback { NOT_DEFINED, NO_FALLBACK, ANY_ENDPOINT, DEFAULT_SUBSET, KEYS_SUBSET }

    public SubsetSelectorConfig {
        keys = List.copyOf(keys);
        fallbackKeysSubset = List.copyOf(fallbackKeysSubset);
    }
}
