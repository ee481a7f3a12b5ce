package io.tollgate.core.filter;

import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.extension.ExtensionFactory;

/**
 * Makes one kind of {@link StreamFilter}. Registered like every extension (listed in
 * {@code META-INF/services/io.tollgate.core.extension.ExtensionFactory}); its
 * {@link #parse(io.tollgate.core.config.ConfigNode, Object) parse} reads the filter's own keys,
 * given beside {@code name} in a listener's {@code filters} entry or under the filter's name in a
 * route's {@code filters} block, validates them with path-named errors, and stores them with
 * {@link StreamFilterConfig#withSettings}.
 */
public interface StreamFilterFactory extends ExtensionFactory<StreamFilterConfig> {

    @Override
    default Class<StreamFilterConfig> configType() {
        return StreamFilterConfig.class;
    }

    /**
     * The filter of one chain, made when a configuration is compiled (never per request); its
     * state, such as a rate limit's tokens, lives as long as that configuration serves.
     */
    StreamFilter create(StreamFilterConfig config, FilterScope scope);
}
