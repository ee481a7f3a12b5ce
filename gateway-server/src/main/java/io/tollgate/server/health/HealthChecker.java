package io.tollgate.server.health;

import io.netty.channel.ChannelPipeline;
import io.netty.util.concurrent.Promise;
import io.tollgate.router.host.Host;

/**
 * One kind of active health probe (TCP connect, HTTP request, Bolt heartbeat ...), made by a
 * {@link HealthCheckerFactory} registered by type name. A probe runs on a connection of its own,
 * opened for it: the checker only says what to ask once connected and what answer passes.
 */
public interface HealthChecker {

    /**
     * Sets up the pipeline of a new probe connection to {@code host}. The handlers added complete
     * {@code verdict} with true (passed) or false (failed) once they know, and MUST release
     * whatever they read. The caller connects, enforces the timeout and closes the connection.
     */
    void initProbe(ChannelPipeline pipeline, Host host, Promise<Boolean> verdict);
}
