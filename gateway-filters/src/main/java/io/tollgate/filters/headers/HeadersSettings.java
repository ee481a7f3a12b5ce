package io.tollgate.filters.headers;

/**
 * What a {@code headers} filter changes, compiled.
 *
 * @param request the changes to the request's headers, made before it is forwarded
 * @param response the changes to the response's headers: the upstream's, or the route's own
 *     answer (a direct response, a redirect); the gateway's error answers are left as they are
 */
record HeadersSettings(HeaderRules request, HeaderRules response) {
}
