/**
 * Traffic mirroring ({@code mirror}): a share of the requests copied to a shadow cluster, fire
 * and forget, by the engine's {@link io.tollgate.core.filter.StreamFilterContext#mirror}, as
 * Envoy's request mirror policies do; the request itself never waits for its copy.
 */
package io.tollgate.filters.mirror;
