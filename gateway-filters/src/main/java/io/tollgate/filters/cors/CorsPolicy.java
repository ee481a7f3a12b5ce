package io.tollgate.filters.cors;

import java.util.List;

/**
 * A CORS policy as Envoy's {@code CorsPolicy} has it.
 *
 * @param allowOrigin the origins allowed; a request from any other is left alone
 * @param allowMethods {@code access-control-allow-methods} of a preflight's answer, or null
 * @param allowHeaders {@code access-control-allow-headers} of a preflight's answer, or null
 * @param exposeHeaders {@code access-control-expose-headers} of an actual request's response, or null
 * @param maxAge {@code access-control-max-age} (seconds) of a preflight's answer, or null
 * @param allowCredentials whether responses carry {@code access-control-allow-credentials: true}
 */
record CorsPolicy(List<OriginMatcher> allowOrigin, String allowMethods, String allowHeaders, String exposeHeaders,
        String maxAge, boolean allowCredentials) {

    CorsPolicy {
        allowOrigin = List.copyOf(allowOrigin);
    }

    boolean allows(String origin) {
        for (int i = 0; i < allowOrigin.size(); i++) {
            if (allowOrigin.get(i).matches(origin)) {
                return true;
            }
        }
        return false;
    }
}
