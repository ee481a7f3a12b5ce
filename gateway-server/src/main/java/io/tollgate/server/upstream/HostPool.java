package io.tollgate.server.upstream;

import io.tollgate.router.host.Host;

/**
 * The upstream connections of one event loop to one host, whatever the protocol: the HTTP/1.1
 * and HTTP/2 pools ({@link io.tollgate.server.upstream.http.UpstreamPool}, from which an exchange
 * acquires a connection or a stream) and the RPC pool of multiplexed connections. What an exchange and a reload ask of every
 * one of them. Confined to its event loop: every method MUST be called on it.
 */
public interface HostPool {

    Host host();

    /**
     * Whether this pool learned recently that its host died (see {@code docs/design.md}, "When a
     * host dies"): the load balancer's choice should then go to another host when there is one.
     * One field read while the host is alive.
     */
    boolean hostDown();

    /**
     * Closes the pool once its exchanges end, after a reload took its host or cluster away: idle
     * connections close at once, busy ones when their requests end.
     */
    void drain();
}
