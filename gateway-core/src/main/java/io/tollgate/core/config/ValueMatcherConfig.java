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

    public ValueMatcherConfig {
        int kinds = (exact.isPresent() ? 1 : 0) + (regex.isPresent() ? 1 : 0) + (present ? 1 : 0);
        if (kinds != 1) {
            throw new InvalidFieldException("", "needs exactly one of exact, regex, present: true (found " + kinds + ")");
        }
        regex.ifPresent(r -> FieldRules.regex("regex", r));
    }
}
