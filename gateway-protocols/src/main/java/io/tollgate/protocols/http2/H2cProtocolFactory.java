package io.tollgate.protocols.http2;

import io.tollgate.core.config.ProtocolOptions;
import io.tollgate.core.extension.ProtocolFactory;

/**
 * Registers {@code h2c}: HTTP/2 on listeners, by prior knowledge or upgrade in cleartext and by
 * ALPN {@code h2} over TLS. Its settings are the listener's {@code http2:} block, which every
 * listener has, so it reads none of its own.
 */
public final class H2cProtocolFactory implements ProtocolFactory {

    @Override
    public String name() {
        return "h2c";
    }

    @Override
    public ProtocolOptions defaults() {
        return ProtocolOptions.NONE;
    }
}
