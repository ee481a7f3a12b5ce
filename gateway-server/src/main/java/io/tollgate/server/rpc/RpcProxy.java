package io.tollgate.server.rpc;

import io.netty.channel.ChannelHandler;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.protocols.rpc.RpcCodec;
import io.tollgate.protocols.rpc.RpcFrameDecoder;
import io.tollgate.protocols.rpc.RpcFrameEncoder;
import io.tollgate.server.dispatch.ListenerProxy;
import io.tollgate.server.exchange.ListenerRecords;
import io.tollgate.server.overload.OverloadGuard;
import io.tollgate.server.snapshot.Snapshot;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * What every connection of one RPC protocol on one listener shares, a {@link ListenerProxy}: on top
 * of the listener's configuration, records and dispatcher, the protocol's codec with the
 * listener's limits, the process's upstream connections for the protocol, and where calls to a
 * per-service template find their cluster. It makes each connection's handlers.
 */
public final class RpcProxy extends ListenerProxy {

    private final RpcCodec codec;
    private final int maxQueuedBytes;
    private final Duration idleTimeout;
    private final Duration firstFrameTimeout;
    private final RpcUpstreams upstreams;
    private final ServiceClusters serviceClusters;

    /**
     * @param codec the protocol with the listener's limits, for downstream connections
     * @param maxQueuedBytes the most bytes of responses queued for a client that stopped reading,
     *     past the write buffer's low watermark, before it is closed: the listener's largest frame,
     *     so that a client may fall behind by one largest frame at most
     * @param idleTimeout a connection that sends nothing, not even a heartbeat, for this long is closed
     * @param firstFrameTimeout a new connection whose first frame does not arrive within this time is closed
     * @param overload while it says so, requests are answered with the protocol's busy status
     * @param serviceClusters where calls routed to a per-service template find their service's cluster
     */
    public RpcProxy(ListenerConfig listener, RpcCodec codec, int maxQueuedBytes, Duration idleTimeout,
            Duration firstFrameTimeout, Supplier<Snapshot> snapshot, RpcUpstreams upstreams, ListenerRecords records, OverloadGuard overload,
            ServiceClusters serviceClusters) {
        super(listener, records, snapshot, overload);
        this.codec = codec;
        this.maxQueuedBytes = maxQueuedBytes;
        this.idleTimeout = idleTimeout;
        this.firstFrameTimeout = firstFrameTimeout;
        this.upstreams = upstreams;
        this.serviceClusters = serviceClusters;
    }

    /** Where calls routed to a per-service template find their service's cluster. */
    ServiceClusters serviceClusters() {
        return serviceClusters;
    }

    /** The protocol, with the listener's limits. */
    public RpcCodec codec() {
        return codec;
    }

    /** How long a downstream connection may stay silent. */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    /** How long a new downstream connection may take to send its first frame. */
    public Duration firstFrameTimeout() {
        return firstFrameTimeout;
    }

    /** A new decoder for one downstream connection. */
    public ChannelHandler newDecoder() {
        return new RpcFrameDecoder(codec);
    }

    /** The encoder to install in a downstream pipeline, shared by every channel. */
    public ChannelHandler encoder() {
        return RpcFrameEncoder.INSTANCE;
    }

    /** A new handler for one downstream connection, the last of its pipeline. */
    public ChannelHandler newHandler() {
        return new RpcDownstreamHandler(this);
    }

    String listenerName() {
        return listenerConfig().name();
    }

    RpcUpstreams upstreams() {
        return upstreams;
    }

    int maxQueuedBytes() {
        return maxQueuedBytes;
    }
}
