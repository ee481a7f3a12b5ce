package io.tollgate.server.network.tcpproxy;

import static java.util.Objects.requireNonNull;

import io.tollgate.core.config.NetworkFilterConfig;
import java.time.Duration;
import java.util.List;

/**
 * The settings of the terminal {@code tcp_proxy} network filter.
 *
 * @param cluster the cluster whose load balancer picks each connection's upstream host
 * @param idleTimeout a connection with no byte either way for this long is closed (default 1 h, as Envoy's)
 * @param splice whether a bulk connection's bytes move with {@code splice(2)} when both sides are
 *     native epoll plain TCP (default off, as HAProxy's splicing; see {@link SpliceRelay})
 */
public record TcpProxyConfig(String cluster, Duration idleTimeout, boolean splice) implements NetworkFilterConfig {

    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofHours(1);

    public TcpProxyConfig {
        requireNonNull(cluster, "cluster");
        requireNonNull(idleTimeout, "idleTimeout");
    }

    @Override
    public boolean terminal() {
        return true;
    }

    @Override
    public List<String> clusters() {
        return List.of(cluster);
    }
}
