package io.tollgate.server.network;

import io.netty.channel.ChannelHandler;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.NetworkFilterConfig;
import io.tollgate.core.config.NetworkFilterEntry;
import io.tollgate.core.extension.ExtensionRegistry;
import io.tollgate.core.filter.NetworkFilter;
import io.tollgate.core.filter.NetworkFilterContext;
import io.tollgate.core.filter.NetworkFilterFactory;
import io.tollgate.core.metrics.GatewayMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The non-terminal network filters of one listener, prepared once by their factories: each new
 * connection gets a {@link NetworkFilterHandler} with a fresh filter of each. A listener without
 * such filters has no chain at all (see {@link #of}), so an empty {@code network_filters} adds no
 * handler to any connection.
 */
public final class NetworkFilterChain {

    private final String listener;
    private final List<Supplier<NetworkFilter>> filters;

    private NetworkFilterChain(String listener, List<Supplier<NetworkFilter>> filters) {
        this.listener = listener;
        this.filters = List.copyOf(filters);
    }

    /**
     * The chain of {@code config}'s non-terminal filters, or null when it has none.
     *
     * @throws IllegalArgumentException when a configured filter is not registered as a {@link NetworkFilterFactory}
     */
    public static NetworkFilterChain of(ListenerConfig config, ExtensionRegistry extensions, GatewayMetrics metrics) {
        NetworkFilterContext context = new NetworkFilterContext(config.name(), metrics.registry());
        List<Supplier<NetworkFilter>> filters = new ArrayList<>();
        for (NetworkFilterEntry entry : config.networkFilters()) {
            if (entry.config().terminal()) {
                continue;
            }
            NetworkFilterFactory factory = extensions.find(NetworkFilterConfig.class, entry.name(), NetworkFilterFactory.class)
                    .orElseThrow(() -> new IllegalArgumentException("listeners." + config.name() + ".network_filters: "
                            + entry.name() + " (expected one of " + extensions.names(NetworkFilterConfig.class) + ")"));
            filters.add(factory.prepare(entry.config(), context));
        }
        return filters.isEmpty() ? null : new NetworkFilterChain(config.name(), filters);
    }

    /** The handler running this chain for one new connection. */
    public ChannelHandler newHandler() {
        NetworkFilter[] instances = new NetworkFilter[filters.size()];
        for (int i = 0; i < instances.length; i++) {
            instances[i] = filters.get(i).get();
        }
        return new NetworkFilterHandler(listener, instances);
    }
}
