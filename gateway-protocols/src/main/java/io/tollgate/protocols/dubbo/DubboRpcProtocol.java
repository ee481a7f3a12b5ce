package io.tollgate.protocols.dubbo;

import io.tollgate.core.config.RpcListenerOptions;
import io.tollgate.core.config.RpcOptions;
import io.tollgate.protocols.rpc.RpcCodec;
import io.tollgate.protocols.rpc.RpcProtocol;
import java.time.Duration;

/**
 * Registers {@code dubbo}: the Dubbo 2.x wire protocol (what Dubbo 3's {@code dubbo} protocol
 * speaks) on listeners, with the listener's {@code dubbo:} block: {@code max_frame_bytes} (the
 * whole frame, default 16 header bytes plus Dubbo's own 8 MiB payload limit) and
 * {@code idle_timeout} (default 180 s: Dubbo consumers send a heartbeat after 60 s idle, and a
 * Dubbo server closes after three missed ones).
 */
public final class DubboRpcProtocol implements RpcProtocol {

    /** The settings of a listener whose {@code dubbo:} block says nothing. */
    public static final RpcOptions DEFAULTS = new RpcOptions(
            DubboProtocol.HEADER_LENGTH + DubboProtocol.DEFAULT_PAYLOAD_LIMIT, Duration.ofSeconds(180));

    @Override
    public String name() {
        return DubboProtocol.NAME;
    }

    @Override
    public RpcOptions defaults() {
        return DEFAULTS;
    }

    @Override
    public RpcCodec codec(RpcListenerOptions options) {
        return new DubboCodec(options.maxFrameBytes() - DubboProtocol.HEADER_LENGTH);
    }

    @Override
    public RpcCodec upstreamCodec() {
        return DubboCodec.DEFAULTS;
    }
}
