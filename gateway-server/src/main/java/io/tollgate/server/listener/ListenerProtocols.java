package io.tollgate.server.listener;

import io.netty.channel.ChannelPipeline;
import io.tollgate.core.config.TlsConfig;
import io.tollgate.core.metrics.ListenerMetrics;
import io.tollgate.server.transport.PipelineNames;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The protocols one listener serves, reachable both ways a connection's protocol becomes known:
 * from its first bytes (one protocol installed directly, several detected) or, on a TLS listener,
 * from the ALPN name the handshake agreed on.
 */
final class ListenerProtocols {

    private final List<DownstreamProtocol> inOrder;
    private final Map<String, DownstreamProtocol> byAlpn = new HashMap<>();
    private final Map<String, DownstreamProtocol> byName = new HashMap<>();
    private final long detectionTimeoutNanos;
    private final ListenerMetrics metrics;

    /**
     * @param names the configured protocol names, in the listener's order
     * @param protocols the protocol of each name, in the same order
     * @param detectionTimeoutNanos how long detection among several protocols may take
     * @param metrics where connections closed by detection are counted
     */
    ListenerProtocols(List<String> names, List<DownstreamProtocol> protocols, long detectionTimeoutNanos,
            ListenerMetrics metrics) {
        this.detectionTimeoutNanos = detectionTimeoutNanos;
        this.metrics = metrics;
        if (names.size() != protocols.size()) {
            throw new IllegalArgumentException("protocols: " + protocols.size() + " (expected one per name of " + names + ")");
        }
        this.inOrder = List.copyOf(protocols);
        for (int i = 0; i < names.size(); i++) {
            byName.put(names.get(i), protocols.get(i));
            if (names.get(i).equals("h2c")) {
                byAlpn.put(TlsConfig.H2, protocols.get(i));
            } else if (names.get(i).equals("http1")) {
                byAlpn.put(TlsConfig.HTTP_1_1, protocols.get(i));
            }
        }
    }

    /** Installs what a connection whose protocol is not yet known needs: its protocol, or detection among several. */
    void installByFirstBytes(ChannelPipeline pipeline) {
        if (inOrder.size() == 1) {
            inOrder.get(0).configure(pipeline);
            return;
        }
        pipeline.addLast(PipelineNames.DETECT, new ProtocolDetectionHandler(inOrder, detectionTimeoutNanos, metrics));
    }

    /**
     * Installs what a connection that moved here from another process needs: the protocol it was
     * speaking there ({@code null}: not yet known, detected from its first bytes as usual).
     *
     * @return false when this listener does not serve {@code protocol}
     */
    boolean installMoved(ChannelPipeline pipeline, String protocol, boolean firstFrameSeen) {
        if (protocol == null) {
            installByFirstBytes(pipeline);
            return true;
        }
        DownstreamProtocol known = byName.get(protocol);
        if (known == null) {
            return false;
        }
        known.configure(pipeline);
        if (firstFrameSeen && pipeline.get(PipelineNames.FIRST_FRAME) != null) {
            pipeline.remove(PipelineNames.FIRST_FRAME);
        }
        return true;
    }

    /** The protocol serving an ALPN name, or null when this listener serves none under it. */
    DownstreamProtocol forAlpn(String alpnName) {
        return byAlpn.get(alpnName);
    }
}
