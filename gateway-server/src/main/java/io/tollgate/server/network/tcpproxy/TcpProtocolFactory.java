package io.tollgate.server.network.tcpproxy;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.ProtocolOptions;
import io.tollgate.core.extension.ProtocolFactory;

/**
 * Registers the listener protocol {@code tcp}: no protocol at all, the connection's bytes served
 * by the terminal network filter that ends the listener's {@code network_filters}. Its settings
 * are that filter's, so a {@code tcp:} block is refused.
 */
public final class TcpProtocolFactory implements ProtocolFactory {

    @Override
    public String name() {
        return ListenerConfig.TCP;
    }

    @Override
    public ProtocolOptions defaults() {
        return ProtocolOptions.NONE;
    }

    @Override
    public ProtocolOptions parse(ConfigNode node, ProtocolOptions base) {
        throw node.error("has no settings (expected them on the terminal network filter, e.g. "
                + "network_filters: [{name: tcp_proxy, cluster: ...}])");
    }
}
