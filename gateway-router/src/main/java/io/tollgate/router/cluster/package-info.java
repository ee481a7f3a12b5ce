/**
 * Clusters, their hosts and subset load balancing.
 *
 * <p>A {@link io.tollgate.router.cluster.Cluster} publishes one immutable version at a time
 * through a volatile field: a {@link io.tollgate.router.cluster.HostSet} (hosts at stable
 * indices, reused through a free list; healthy hosts unpacked by rank) and, with
 * {@code subset_lb_config}, a {@link io.tollgate.router.cluster.SubsetIndex} (one RoaringBitmap
 * per label, subsets as ANDs of them with the healthy hosts, reached through a trie keyed by
 * metadata key and value). A request reads the version once: metadata walks the trie (exact
 * subset), else the selector's fallback chain, else the cluster's fallback policy; the cluster's
 * load balancer then picks by rank from the resulting candidates, allocating nothing. Hosts
 * count their active requests in the cluster's {@code ActiveRequests},
 * one dense store by host index, so least request reads two ints of it rather than two host
 * objects; an index whose removed host still has requests in flight is reused only once they end.
 *
 * <p>Endpoint updates and health changes run on one writer thread (the gateway's control thread;
 * event loops only hand it their verdicts), so they take no lock: they copy the host array, clone only the label bitmaps the changed hosts touch, recompute
 * only the subsets those hosts belong to (before and after), copy only the trie paths to them,
 * and publish the result in one write, with the cluster's configuration listing the endpoints
 * just applied.
 */
package io.tollgate.router.cluster;
