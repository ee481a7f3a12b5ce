package io.tollgate.server.upstream.http;

import io.netty.channel.EventLoop;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.router.host.Host;
import io.tollgate.server.transport.Transport;
import io.tollgate.server.upstream.AbstractHostPool;
import io.tollgate.server.upstream.HostDownMark;
import java.util.List;

/**
 * What the HTTP/1.1 and HTTP/2 pools of one event loop to one host share: requests that find no
 * ready connection wait in one {@link Waiters} queue, connects are reserved within the per-loop
 * limit and the cluster's connection breaker, and a host's death is learned once for the whole
 * pool. On a connect failure while no other connection is up, or a connection lost while it had
 * no answer started (see the connections for what counts), the pool closes its idle connections
 * (they went with the host), moves its waiting requests to
 * another host at once ({@link Failure#HOST_DOWN}: nothing was sent for them) and reports itself
 * {@link #hostDown()} as its {@link HostDownMark} says, so that the load balancer's choices avoid
 * the host meanwhile. Confined to its event loop.
 */
abstract class AbstractUpstreamPool extends AbstractHostPool implements UpstreamPool {

    protected final EventLoop loop;
    protected final PoolEvents events;
    protected final Waiters waiters;

    AbstractUpstreamPool(EventLoop loop, Transport transport, Host host, ClusterConfig cluster, CircuitBreakers breakers,
            PoolEvents events) {
        super(loop, transport, host, cluster, breakers);
        this.loop = loop;
        this.events = events;
        this.waiters = new Waiters(cluster.maxPendingRequests(), breakers, events);
    }

    /**
     * A ready connection (or stream) at once, else the request waits, with a new connect started
     * for it when every waiter before it already has one.
     */
    @Override
    public final void acquire(Acquirer acquirer) {
        assert loop.inEventLoop();
        if (serveAtOnce(acquirer)) {
            return;
        }
        boolean connect = waiters.wantsConnect() && reserveConnect();
        waiters.add(acquirer);
        if (connect) {
            connect();
        }
    }

    @Override
    public final void cancel(Acquirer acquirer) {
        waiters.remove(acquirer);
    }

    /** Hands {@code acquirer} a ready connection or stream and returns true, or returns false when none is. */
    protected abstract boolean serveAtOnce(Acquirer acquirer);

    /** Connections open or being opened. */
    protected abstract int connections();

    /** Whether this pool opens another connection now, before the per-loop limit is looked at. */
    protected boolean connectsNow() {
        return true;
    }

    /** Opens a connection reserved by {@link #reserveConnect()}. */
    protected abstract void connect();

    /** Closes the connections that serve nobody now: after the host's death they are as dead. */
    protected abstract void closeIdle();

    /**
     * Whether another connection may be opened: below the per-loop limit, and within the
     * cluster's connection breaker, which a pool without any connection may pass (its waiters
     * would otherwise have nothing to wait for). When it says yes it takes the breaker's
     * connection and counts the connect as in flight, so that the caller MUST call
     * {@link #connect()}; reserving first lets a waiter queue before a connect that fails at once.
     */
    protected final boolean reserveConnect() {
        int open = connections();
        if (!connectsNow() || open >= cluster.maxConnectionsPerHost()) {
            return false;
        }
        if (!breakers.tryOpenConnection(open == 0)) {
            events.connectionOverflow();
            return false;
        }
        connectStarted();
        waiters.connectStarted();
        return true;
    }

    /** Called by {@link #reserveConnect()} once a connect is reserved, before it starts. */
    protected void connectStarted() {
    }

    /**
     * A connect failed: counted and its breaker's connection given back. With {@code othersServe}
     * (established connections that will serve the waiters) the host is alive and its waiter keeps
     * waiting; without, the waiters it covered fail as connect failures and the host died, so that
     * those still covered by other connects move away too.
     */
    protected final void connectFailed(Throwable cause, boolean othersServe) {
        breakers.connectionClosed();
        events.connectFailure();
        waiters.connectEnded(othersServe, cause);
        if (!othersServe) {
            hostDied();
        }
    }

    /**
     * Learns that the host died: idle connections close, waiting requests move to another host at
     * once, and the host counts as down for a while. A death learned again while the pool counts
     * its host down only extends that.
     */
    protected final void hostDied() {
        if (markDied()) {
            events.hostDown();
        } else if (waiters.isEmpty()) {
            return;
        }
        closeIdle();
        List<Acquirer> moved = waiters.takeAll();
        for (Acquirer acquirer : moved) {
            acquirer.failed(Failure.HOST_DOWN, null);
        }
    }
}
