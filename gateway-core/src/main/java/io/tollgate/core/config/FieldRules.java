package io.tollgate.core.config;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;

/**
 * Rules for one value that several records apply to their own fields, failing with an
 * {@link InvalidFieldException} that names the field, so that each rule is worded once.
 */
final class FieldRules {

    private FieldRules() {
    }

    /** Fails unless {@code path}, the value of {@code field}, is an absolute path. */
    static void absolutePath(String field, String path) {
        if (!path.startsWith("/")) {
            throw new InvalidFieldException(field, "must start with '/' (was '" + path + "')");
        }
    }

    /** Fails unless {@code regex}, the value of {@code field}, is a valid RE2 expression. */
    static void regex(String field, String regex) {
        try {
            Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new InvalidFieldException(field, "'" + regex + "' is not a valid regex: " + e.getDescription());
        }
    }
}
