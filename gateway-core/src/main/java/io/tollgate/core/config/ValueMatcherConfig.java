package io.tollgate.core.config;

import java.util.Optional;

/**
 * Matches a named header or query parameter: by exact value, by regex over the whole value, or by
 * presence alone. {@code invert} negates the outcome.
 */
public record ValueMatcherConfig(
        String name,
        Optional<String> exact,
        Optional<String> regex,
        boolean present,
        boolean invert) {
}
