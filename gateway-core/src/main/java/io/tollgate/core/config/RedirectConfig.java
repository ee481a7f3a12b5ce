package io.tollgate.core.config;

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
}
