package io.tollgate.protocols.bolt;

import io.tollgate.protocols.rpc.RpcFrameDecoder;

/**
 * Cuts a Bolt byte stream into {@link BoltFrame}s with a {@link BoltCodec}: each a retained slice
 * of the received bytes, every length checked on the fixed header before the rest is awaited. After
 * a {@link BoltCodecException} everything the connection sends is discarded.
 *
 * <p>Stateful: one instance per channel, never shared.
 */
public final class BoltDecoder extends RpcFrameDecoder {

    /** A decoder with {@link BoltCodecOptions#DEFAULTS}. */
    public BoltDecoder() {
        super(BoltCodec.DEFAULTS);
    }

    /** A decoder enforcing {@code options}. */
    public BoltDecoder(BoltCodecOptions options) {
        super(new BoltCodec(options));
    }
}
