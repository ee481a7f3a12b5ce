package io.tollgate.protocols.rpc;

import io.tollgate.core.config.ProtocolFactory;
import io.tollgate.core.config.RpcListenerOptions;

/**
 * A multiplexed RPC protocol as a plug-in: the one thing a protocol package registers (in
 * {@code META-INF/services/io.tollgate.core.extension.ExtensionFactory}) for the gateway to serve
 * it on a listener and speak it upstream. It reads the listener's block named after it into
 * {@link RpcListenerOptions} when the configuration is loaded, and makes the codecs the engine
 * drives.
 */
public interface RpcProtocol extends ProtocolFactory {

    @Override
    RpcListenerOptions defaults();

    /**
     * The codec of a listener's downstream connections, with the limits of {@code options}, which
     * this protocol's {@link #parse} or {@link #defaults()} made.
     */
    RpcCodec codec(RpcListenerOptions options);

    /** The codec of upstream connections, with the protocol's default limits. */
    RpcCodec upstreamCodec();
}
