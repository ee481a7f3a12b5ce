package io.tollgate.server.bolt;

import io.netty.channel.ChannelHandler;
import io.tollgate.core.accesslog.AccessLogSink;
import io.tollgate.core.config.BoltOptions;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.core.metrics.ListenerMetrics;
import io.tollgate.protocols.bolt.BoltCodecOptions;
import io.tollgate.protocols.rpc.RpcFrameEncoder;
import io.tollgate.server.Snapshot;
import java.util.function.Supplier;

/**
 * What every Bolt connection of one listener shares: the listener's configuration and codec
 * limits, the current configuration snapshot, the process's Bolt upstream connections, metrics
 * and access log.
 */
public final class BoltProxy {

    /** Stateless, so one instance serves every channel. */
    static final RpcFrameEncoder ENCODER = RpcFrameEncoder.INSTANCE;

    private final ListenerConfig listener;
    private final Supplier<Snapshot> snapshot;
    private final BoltUpstreams upstreams;
    private final GatewayMetrics metrics;
    private final ListenerMetrics listenerMetrics;
    private final AccessLogSink accessLog;
    private final BoltCodecOptions codecOptions;

    /** @param accessLog the listener's access log, or null for none */
    public BoltProxy(ListenerConfig listener, Supplier<Snapshot> snapshot, BoltUpstreams upstreams,
            GatewayMetrics metrics, AccessLogSink accessLog) {
        this.listener = listener;
        this.snapshot = snapshot;
        this.upstreams = upstreams;
        this.metrics = metrics;
        this.listenerMetrics = metrics.listener(listener.name());
        this.accessLog = accessLog;
        BoltOptions bolt = listener.bolt();
        this.codecOptions = new BoltCodecOptions(bolt.maxFrameBytes(), bolt.maxClassBytes(), bolt.maxHeaderBytes());
    }

    /** The configuration of the listener this proxy serves. */
    public ListenerConfig listenerConfig() {
        return listener;
    }

    /** The limits the listener's decoders enforce. */
    public BoltCodecOptions codecOptions() {
        return codecOptions;
    }

    /** The encoder to install in a downstream pipeline, shared by every channel. */
    public ChannelHandler encoder() {
        return ENCODER;
    }

    /** A new handler for one downstream connection, the last of its pipeline. */
    public ChannelHandler newHandler() {
        return new BoltDownstreamHandler(this);
    }

    String listenerName() {
        return listener.name();
    }

    Snapshot snapshot() {
        return snapshot.get();
    }

    GatewayMetrics metrics() {
        return metrics;
    }

    ListenerMetrics listenerMetrics() {
        return listenerMetrics;
    }

    AccessLogSink accessLog() {
        return accessLog;
    }

    BoltUpstreams upstreams() {
        return upstreams;
    }

    /**
     * The most bytes of responses queued for a client that stopped reading before it is closed,
     * counted past the write buffer's low watermark: the listener's {@code max_frame_bytes}, so a
     * client may fall behind by one largest frame at most.
     */
    int maxQueuedBytes() {
        return codecOptions.maxFrameSize();
    }
}
