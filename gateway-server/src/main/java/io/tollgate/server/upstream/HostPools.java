package io.tollgate.server.upstream;

import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.host.Host;

/**
 * One event loop's pools of one kind (HTTP, or one RPC protocol's), by cluster and host: where an
 * exchange finds the pool of the host it sends an attempt to. Confined to its event loop.
 *
 * @param <P> the kind of pool
 */
public interface HostPools<P extends HostPool> {

    /** The pool for a host of a cluster, created on first use. */
    P pool(Cluster cluster, Host host);

    /** Whether the pool of a host of a cluster, if there is one yet, learned that the host died. */
    boolean hostDown(Cluster cluster, Host host);
}
