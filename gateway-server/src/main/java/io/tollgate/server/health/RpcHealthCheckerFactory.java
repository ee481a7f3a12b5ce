package io.tollgate.server.health;

import io.tollgate.core.config.HealthCheckConfig;
import io.tollgate.protocols.rpc.RpcCodec;

/**
 * Registers a heartbeat health check for an RPC protocol, under the protocol's name: the host
 * passes when it acknowledges the protocol's heartbeat as healthy ({@link RpcHealthChecker}). A
 * protocol gets one by a subclass naming its codec; no settings of its own.
 */
public abstract class RpcHealthCheckerFactory implements HealthCheckerFactory {

    private final RpcCodec codec;

    /** @param codec the protocol whose heartbeat is sent, with the limits its answers are read with */
    protected RpcHealthCheckerFactory(RpcCodec codec) {
        this.codec = codec;
    }

    @Override
    public final String name() {
        return codec.protocol();
    }

    @Override
    public final HealthChecker create(HealthCheckConfig config) {
        return new RpcHealthChecker(codec);
    }
}
