package io.tollgate.protocols.bolt;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.ProtocolOptions;
import io.tollgate.core.config.RpcListenerOptions;
import io.tollgate.protocols.rpc.RpcCodec;
import io.tollgate.protocols.rpc.RpcProtocol;
import java.util.Set;

/**
 * Registers {@code bolt}: SOFA Bolt v1 and v2 on listeners, with the limits of the listener's
 * {@code bolt:} block ({@code max_frame_bytes}, {@code max_class_bytes}, {@code max_header_bytes},
 * {@code idle_timeout}, {@code first_frame_timeout}).
 */
public final class BoltRpcProtocol implements RpcProtocol {

    @Override
    public String name() {
        return BoltProtocol.NAME;
    }

    @Override
    public BoltOptions defaults() {
        return BoltOptions.DEFAULTS;
    }

    @Override
    public ProtocolOptions parse(ConfigNode n, ProtocolOptions base) {
        n.allowOnly(Set.of("max_frame_bytes", "max_class_bytes", "max_header_bytes", "idle_timeout",
                "first_frame_timeout"));
        BoltOptions d = (BoltOptions) base;
        return new BoltOptions(
                n.integer("max_frame_bytes", d.maxFrameBytes(), 1024, 1 << 30),
                n.integer("max_class_bytes", d.maxClassBytes(), 0, Short.MAX_VALUE),
                n.integer("max_header_bytes", d.maxHeaderBytes(), 0, Short.MAX_VALUE),
                n.positiveDuration("idle_timeout", d.idleTimeout()),
                n.positiveDuration("first_frame_timeout", d.firstFrameTimeout()));
    }

    @Override
    public RpcCodec codec(RpcListenerOptions options) {
        BoltOptions bolt = (BoltOptions) options;
        return new BoltCodec(new BoltCodecOptions(bolt.maxFrameBytes(), bolt.maxClassBytes(), bolt.maxHeaderBytes()));
    }

    @Override
    public RpcCodec upstreamCodec() {
        return BoltCodec.DEFAULTS;
    }
}
