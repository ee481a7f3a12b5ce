/**
 * Local rate limiting ({@code local_rate_limit}): lock-free token buckets kept in the gateway's
 * memory, one per chain or one per descriptor value (client address, header value), as Envoy's
 * local rate limit filter.
 */
package io.tollgate.filters.localratelimit;
