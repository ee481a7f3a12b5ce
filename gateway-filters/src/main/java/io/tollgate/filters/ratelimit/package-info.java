/**
 * The {@code rate_limit} stream filter: Envoy's global rate limit, asking a rate limit service
 * (Envoy's {@code ratelimit}, or any server of {@code envoy.service.ratelimit.v3.RateLimitService})
 * whether each request's descriptors are within their cluster-wide limits, for HTTP, gRPC, Bolt
 * and Dubbo requests alike.
 */
package io.tollgate.filters.ratelimit;
