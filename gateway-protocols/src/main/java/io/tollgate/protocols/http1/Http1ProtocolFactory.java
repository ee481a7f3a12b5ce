package io.tollgate.protocols.http1;

import io.tollgate.core.config.ProtocolOptions;
import io.tollgate.core.extension.ProtocolFactory;

/**
 * Registers {@code http1}: HTTP/1.1 (and 1.0) on listeners. Its settings are the listener's
 * {@code http:} block, which every listener has, so it reads none of its own.
 */
public final class Http1ProtocolFactory implements ProtocolFactory {

    @Override
    public String name() {
        return "http1";
    }

    @Override
    public ProtocolOptions defaults() {
        return ProtocolOptions.NONE;
    }
}
