package io.tollgate.core.filter;

import io.tollgate.core.config.NetworkFilterConfig;
import io.tollgate.core.extension.ExtensionFactory;
import java.util.function.Supplier;

/**
 * The kind of extension that network filters are ({@code listeners[].network_filters[].name}):
 * one implementation per filter, listed in
 * {@code META-INF/services/io.tollgate.core.extension.ExtensionFactory} and found by name. Its
 * {@link #parse} reads the filter's element of the list over {@link NetworkFilterConfig#NONE}
 * once, when the configuration is loaded; {@link #prepare} runs once per listener; the supplier it
 * returns runs once per connection and MUST be cheap.
 *
 * <p>A terminal filter ({@link NetworkFilterConfig#terminal()}) is served by the gateway itself
 * and registers a plain {@link ExtensionFactory} of {@link NetworkFilterConfig} instead.
 */
public interface NetworkFilterFactory extends ExtensionFactory<NetworkFilterConfig> {

    @Override
    default Class<NetworkFilterConfig> configType() {
        return NetworkFilterConfig.class;
    }

    /** Makes, for one listener, the supplier of per-connection filters configured by {@code config}. */
    Supplier<NetworkFilter> prepare(NetworkFilterConfig config, NetworkFilterContext context);
}
