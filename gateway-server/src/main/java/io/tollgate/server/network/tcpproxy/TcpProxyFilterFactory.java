package io.tollgate.server.network.tcpproxy;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.NetworkFilterConfig;
import io.tollgate.core.extension.ExtensionFactory;
import java.util.Set;

/**
 * Registers the terminal network filter {@code tcp_proxy}: L4 forwarding of a {@code tcp}
 * listener's connections to a cluster. Terminal, so the gateway serves it itself
 * ({@link TcpProxy}) rather than through a {@link io.tollgate.core.filter.NetworkFilter}.
 */
public final class TcpProxyFilterFactory implements ExtensionFactory<NetworkFilterConfig> {

    @Override
    public String name() {
        return "tcp_proxy";
    }

    @Override
    public Class<NetworkFilterConfig> configType() {
        return NetworkFilterConfig.class;
    }

    @Override
    public Set<String> keys() {
        return Set.of("cluster", "idle_timeout", "splice");
    }

    @Override
    public NetworkFilterConfig parse(ConfigNode node, NetworkFilterConfig base) {
        return new TcpProxyConfig(node.string("cluster"),
                node.positiveDuration("idle_timeout", TcpProxyConfig.DEFAULT_IDLE_TIMEOUT), node.bool("splice", false));
    }
}
