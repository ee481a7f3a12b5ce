package io.tollgate.filters.rbac;

import io.tollgate.core.config.ConfigNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A test of one text value, read from a mapping with exactly one of {@code exact}, {@code prefix},
 * {@code suffix} and {@code contains} (and, where a value may be absent, {@code present: true}).
 * Case-sensitive, no regex: a few string compares per request. An absent value matches nothing.
 */
record StringMatcher(Kind kind, String value) {

    /** How the value is compared. */
    enum Kind {
        EXACT, PREFIX, SUFFIX, CONTAINS, PRESENT
    }

    /** The keys {@link #parse} reads. */
    static final Set<String> KEYS = Set.of("exact", "prefix", "suffix", "contains");

    /**
     * Reads the one comparison {@code n} gives; {@code present: true} is allowed only when
     * {@code allowPresent}.
     */
    static StringMatcher parse(ConfigNode n, boolean allowPresent) {
        List<StringMatcher> given = new ArrayList<>(1);
        n.optionalString("exact").ifPresent(v -> given.add(new StringMatcher(Kind.EXACT, v)));
        n.optionalString("prefix").ifPresent(v -> given.add(new StringMatcher(Kind.PREFIX, v)));
        n.optionalString("suffix").ifPresent(v -> given.add(new StringMatcher(Kind.SUFFIX, v)));
        n.optionalString("contains").ifPresent(v -> given.add(new StringMatcher(Kind.CONTAINS, v)));
        if (allowPresent && n.bool("present", false)) {
            given.add(new StringMatcher(Kind.PRESENT, null));
        }
        if (given.size() != 1) {
            throw n.error("must give exactly one of exact, prefix, suffix, contains"
                    + (allowPresent ? ", present: true" : ""));
        }
        return given.get(0);
    }

    /** Whether {@code candidate} (null when absent) passes. */
    boolean matches(String candidate) {
        if (candidate == null) {
            return false;
        }
        return switch (kind) {
            case EXACT -> candidate.equals(value);
            case PREFIX -> candidate.startsWith(value);
            case SUFFIX -> candidate.endsWith(value);
            case CONTAINS -> candidate.contains(value);
            case PRESENT -> true;
        };
    }
}
