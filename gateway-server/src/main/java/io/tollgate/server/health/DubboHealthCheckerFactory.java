package io.tollgate.server.health;

import io.tollgate.protocols.dubbo.DubboCodec;

/** Registers {@code dubbo}: a Dubbo heartbeat event, answered with status OK, as a Dubbo provider does. */
public final class DubboHealthCheckerFactory extends RpcHealthCheckerFactory {

    public DubboHealthCheckerFactory() {
        super(DubboCodec.DEFAULTS);
    }
}
