/**
 * Reads YAML (or a tree from xDS) into the validated records of {@code io.tollgate.core.config}:
 * {@link io.tollgate.core.config.read.ConfigLoader} is the one public face, with one reader per
 * section behind it (listeners, routes, clusters, TLS, filters and access log, admin and runtime,
 * the xDS bootstrap, registries). Extensions read their own settings through
 * {@code io.tollgate.core.config.ConfigNode}.
 */
package io.tollgate.core.config.read;
