/**
 * The configuration as served: {@link io.tollgate.server.snapshot.Snapshot}, compiled on the
 * control thread from a validated configuration (routes, clusters, listener filters, upstream TLS,
 * outlier detection) and published whole, and {@link io.tollgate.server.snapshot.SnapshotUpdate},
 * which prepares the next one from the current one on a reload. Event loops only read it.
 */
package io.tollgate.server.snapshot;
