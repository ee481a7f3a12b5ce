/**
 * Envoy v3 resources turned into the gateway's configuration: listeners, routes, clusters,
 * endpoints and secrets translated by the configuration file's rules (through
 * {@code io.tollgate.core.config.read.ConfigLoader}), held as
 * {@link io.tollgate.xds.translation.XdsResources} and composed with the file's part by
 * {@link io.tollgate.xds.translation.ConfigComposer}. It knows nothing of the stream that
 * delivered them: a response reaches it as an {@link io.tollgate.xds.translation.XdsResponse}.
 */
package io.tollgate.xds.translation;
