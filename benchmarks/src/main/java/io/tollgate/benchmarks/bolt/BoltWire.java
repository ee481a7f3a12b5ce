package io.tollgate.benchmarks.bolt;

import io.tollgate.benchmarks.rpc.RpcWire;
import io.tollgate.protocols.bolt.BoltCodec;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.rpc.RpcFrameDecoder;

/**
 * Bolt as the load generator and its upstream read it: {@link BoltFrame}s cut by a {@link RpcFrameDecoder}
 * of a {@link BoltCodec}.
 */
final class BoltWire {

    static final RpcWire<BoltFrame> FRAMES = new RpcWire<>("bolt", BoltFrame.class,
            () -> new RpcFrameDecoder(BoltCodec.DEFAULTS));

    private BoltWire() {
    }
}
