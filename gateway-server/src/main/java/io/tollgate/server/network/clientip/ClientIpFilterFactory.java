package io.tollgate.server.network.clientip;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.tollgate.core.config.CidrRange;
import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.NetworkFilterConfig;
import io.tollgate.core.filter.NetworkFilter;
import io.tollgate.core.filter.NetworkFilterContext;
import io.tollgate.core.filter.NetworkFilterFactory;
import io.tollgate.core.metrics.MetricNames;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Registers the {@code client_ip} network filter: a connection from an address outside
 * {@code allow} (when given) or inside {@code deny} is closed as soon as it is accepted, before a
 * byte is read, and counted in {@code tollgate.downstream.cx.rejected} with reason {@code client_ip}.
 * The filter keeps no per-connection state, so every connection of a listener shares one.
 */
public final class ClientIpFilterFactory implements NetworkFilterFactory {

    /** The reason of {@link MetricNames#DOWNSTREAM_CX_REJECTED} this filter counts under. */
    static final String REASON = "client_ip";

    @Override
    public String name() {
        return "client_ip";
    }

    @Override
    public Set<String> keys() {
        return Set.of("allow", "deny");
    }

    @Override
    public NetworkFilterConfig parse(ConfigNode node, NetworkFilterConfig base) {
        ClientIpConfig config = new ClientIpConfig(node.list("allow", CidrRange::parse), node.list("deny", CidrRange::parse));
        if (config.allow().isEmpty() && config.deny().isEmpty()) {
            throw node.error("neither allow nor deny is given (expected at least one range)");
        }
        return config;
    }

    @Override
    public Supplier<NetworkFilter> prepare(NetworkFilterConfig config, NetworkFilterContext context) {
        Counter refused = context.meters().counter(MetricNames.DOWNSTREAM_CX_REJECTED,
                Tags.of(MetricNames.TAG_LISTENER, context.listener(), MetricNames.TAG_REASON, REASON));
        ClientIpFilter filter = new ClientIpFilter((ClientIpConfig) config, refused);
        return () -> filter;
    }
}
