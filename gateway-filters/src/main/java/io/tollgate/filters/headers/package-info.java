/**
 * Header manipulation ({@code headers}): request and response headers added, set and removed,
 * values with {@code %VARIABLE%}s compiled at load; also the per-route form of a route's
 * {@code request_headers} and {@code response_headers}.
 */
package io.tollgate.filters.headers;
