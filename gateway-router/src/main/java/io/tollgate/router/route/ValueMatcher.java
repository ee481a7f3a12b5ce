package io.tollgate.router.route;

import com.google.re2j.Pattern;
import io.tollgate.core.config.ValueMatcherConfig;

/** A compiled header or query-parameter matcher: exact value, full-value regex, or presence. */
final class ValueMatcher {

    private final String name;
    private final String exact;
    private final Pattern regex;
    private final boolean invert;

    ValueMatcher(ValueMatcherConfig config) {
        this.name = config.name();
        this.exact = config.exact().orElse(null);
        this.regex = config.regex().map(Pattern::compile).orElse(null);
        this.invert = config.invert();
    }

    String name() {
        return name;
    }

    /** Returns whether {@code value} (null when absent) satisfies this matcher. */
    boolean matches(String value) {
        boolean matched;
        if (value == null) {
            matched = false;
        } else if (exact != null) {
            matched = exact.equals(value);
        } else if (regex != null) {
            matched = regex.matcher(value).matches();
        } else {
            matched = true;
        }
        return matched != invert;
    }
}
