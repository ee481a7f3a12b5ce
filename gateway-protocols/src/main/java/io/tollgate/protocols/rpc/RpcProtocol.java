package io.tollgate.protocols.rpc;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.ProtocolOptions;
import io.tollgate.core.config.RpcListenerOptions;
import io.tollgate.core.config.RpcOptions;
import io.tollgate.core.extension.ProtocolFactory;

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
     * Reads the listener's block over {@code base}: by default the two keys the engine reads,
     * {@code max_frame_bytes} and {@code idle_timeout}, into {@link RpcOptions} (any other key is
     * an error naming it), for a protocol whose {@link #defaults()} are {@link RpcOptions}. A
     * protocol with settings of its own overrides this.
     */
    @Override
    default ProtocolOptions parse(ConfigNode node, ProtocolOptions base) {
        return RpcOptions.parse(node, (RpcOptions) base);
    }

    /**
     * The codec of a listener's downstream connections, with the limits of {@code options}, which
     * this protocol's {@link #parse} or {@link #defaults()} made.
     */
    RpcCodec codec(RpcListenerOptions options);

    /** The codec of upstream connections, with the protocol's default limits. */
    RpcCodec upstreamCodec();
}
