package io.tollgate.examples.lpp;

import io.tollgate.core.config.RpcListenerOptions;
import io.tollgate.core.config.RpcOptions;
import io.tollgate.protocols.rpc.RpcCodec;
import io.tollgate.protocols.rpc.RpcProtocol;
import java.time.Duration;

/**
 * Registers {@code lpp} (listed in {@code META-INF/services/io.tollgate.core.extension.ExtensionFactory}),
 * the one class the gateway finds the plug-in by: a listener with {@code protocols: [lpp]} serves
 * LPP, and its routes forward LPP upstream. The listener's {@code lpp:} block holds what the
 * engine reads for every RPC protocol: {@code max_frame_bytes} (default 1 MiB) and
 * {@code idle_timeout} (default 60 s).
 */
public final class LppRpcProtocol implements RpcProtocol {

    /** The settings of a listener whose {@code lpp:} block says nothing, or that has none. */
    public static final RpcOptions DEFAULTS = new RpcOptions(LppProtocol.DEFAULT_MAX_FRAME_BYTES, Duration.ofSeconds(60));

    @Override
    public String name() {
        return LppProtocol.NAME;
    }

    @Override
    public RpcOptions defaults() {
        return DEFAULTS;
    }

    @Override
    public RpcCodec codec(RpcListenerOptions options) {
        return new LppCodec(options.maxFrameBytes());
    }

    @Override
    public RpcCodec upstreamCodec() {
        return LppCodec.DEFAULTS;
    }
}
