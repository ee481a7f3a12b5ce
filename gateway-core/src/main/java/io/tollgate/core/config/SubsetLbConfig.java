package io.tollgate.core.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a cluster routes a request to the subset of its hosts whose labels match the request's
 * metadata (Envoy's {@code subset_lb_config}).
 *
 * @param fallbackPolicy where a request goes when no subset matches it
 * @param defaultSubset the labels of the hosts used by {@link FallbackPolicy#DEFAULT_SUBSET};
 *     empty means every host
 * @param selectors the key sets for which subsets are kept; a request's metadata keys must equal
 *     one of them exactly
 * @param headerPrefix when present, a request header {@code prefix + key} supplies the value of
 *     the metadata key {@code key}, overriding the route's metadata match
 */
public record SubsetLbConfig(
        FallbackPolicy fallbackPolicy,
        Map<String, String> defaultSubset,
        List<SubsetSelectorConfig> selectors,
        Optional<String> headerPrefix) {

    /** Where a request goes when no subset matches its metadata. */
    public enum FallbackPolicy { NO_FALLBACK, ANY_ENDPOINT, DEFAULT_SUBSET }

    public SubsetLbConfig {
        defaultSubset = Map.copyOf(defaultSubset);
        selectors = List.copyOf(selectors);
    }
}
