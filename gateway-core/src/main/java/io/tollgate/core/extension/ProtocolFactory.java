package io.tollgate.core.extension;

import io.tollgate.core.config.ProtocolOptions;

/**
 * The kind of extension that listener protocols are ({@code listeners[].protocols}): one
 * implementation per protocol, listed in {@code META-INF/services/io.tollgate.core.extension.ExtensionFactory}
 * and found by name. Its {@link #parse} reads the listener's block named after the protocol, when
 * the listener has one, over {@link #defaults()}.
 */
public interface ProtocolFactory extends ExtensionFactory<ProtocolOptions> {

    @Override
    default Class<ProtocolOptions> configType() {
        return ProtocolOptions.class;
    }

    /** The options of a listener that has no block for this protocol. */
    ProtocolOptions defaults();
}
