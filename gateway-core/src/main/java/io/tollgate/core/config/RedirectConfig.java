package io.tollgate.core.config;

import java.util.List;
import java.util.Optional;

/**
 * Answers with a redirect; each part left empty keeps the request's own value.
 *
 * @param responseCode 301, 302, 303, 307 or 308
 */
public record RedirectConfig(
        Optional<String> scheme,
        Optional<String> host,
        Optional<Integer> port,
        Optional<String> path,
        Optional<String> prefixRewrite,
        int responseCode,
        boolean stripQuery) {

    /** The statuses a redirect answers with. */
    public static final List<Integer> CODES = List.of(301, 302, 303, 307, 308);

    public RedirectConfig {
        if (!CODES.contains(responseCode)) {
            throw new InvalidFieldException("response_code", responseCode + " (expected one of " + CODES + ")");
        }
        if (path.isPresent() && prefixRewrite.isPresent()) {
            throw new InvalidFieldException("", "path and prefix_rewrite exclude each other");
        }
        path.ifPresent(p -> FieldRules.absolutePath("path", p));
        prefixRewrite.ifPresent(p -> FieldRules.absolutePath("prefix_rewrite", p));
        scheme.filter(s -> !s.equals("http") && !s.equals("https")).ifPresent(s -> {
            throw new InvalidFieldException("scheme", "'" + s + "' (expected http or https)");
        });
    }
}
