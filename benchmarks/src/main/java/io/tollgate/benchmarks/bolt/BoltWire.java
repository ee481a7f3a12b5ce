package io.tollgate.benchmarks.bolt;

import io.tollgate.benchmarks.rpc.RpcWire;
import io.tollgate.protocols.bolt.BoltDecoder;
import io.tollgate.protocols.bolt.BoltFrame;

/** Bolt as the load generator and its upstream read it: {@link BoltFrame}s cut by a {@link BoltDecoder}. */
final class BoltWire {

    static final RpcWire<BoltFrame> FRAMES = new RpcWire<>("bolt", BoltFrame.class, BoltDecoder::new);

    private BoltWire() {
    }
}
