package io.tollgate.server.network.tcpproxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPromise;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.tollgate.core.accesslog.AccessLogEntry;
import io.tollgate.core.accesslog.AccessLogSink;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.metrics.ClusterMetrics;
import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.host.Host;
import io.tollgate.router.outlier.UpstreamFailure;
import io.tollgate.router.outlier.UpstreamOutcomes;
import io.tollgate.server.proxyprotocol.ProxyHeaderEncoder;
import io.tollgate.server.snapshot.Snapshot;
import io.tollgate.server.tls.UpstreamConnector;
import io.tollgate.server.transport.ClientAddresses;
import io.tollgate.server.transport.EpollHalfClose;
import io.tollgate.server.transport.HandlerFailures;
import io.tollgate.server.transport.OriginalDestination;
import io.tollgate.server.transport.ReadPauses;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection forwarded to one upstream host, both channels on the client's event loop.
 * Buffers pass from one side to the other as they were read (no copy), flushed once per read
 * batch. Reading a side pauses while the other side is not writable ({@link ReadPauses#PEER_UNWRITABLE}),
 * so a connection holds at most about one read batch plus a write buffer's high-water mark per
 * direction. Half-close goes through both ways: the end of one side's input becomes a FIN on
 * the other side once what was read before it is written; the connection closes once both inputs
 * have ended, or when either side closes or fails, or after {@code idle_timeout} without a byte
 * either way: one timer per connection that reads the time of the last read batch when it fires
 * (cheaper than Netty's idle handler, which makes a promise and a listener per write).
 *
 * <p>With the option {@code splice}, a connection whose read batch brings at least
 * {@link #SPLICE_AFTER_BYTES} (bulk, not a conversation) while both sides are open and nothing
 * waits to be written moves on with {@link SpliceRelay}: reading pauses
 * ({@link ReadPauses#SPLICING}), both channels are deregistered from the loop, and the relay takes
 * their descriptors until it {@linkplain #handedBack hands them back} (end of an input, an error, a
 * close), after which the connection goes on here as above. After the end of one input has been
 * passed on, bulk the other way splices again, in that direction only. A close of either channel
 * meanwhile first takes both back ({@link #beforeClose}), so that it runs its course as usual.
 */
final class TcpProxySession {

    private static final Logger log = LoggerFactory.getLogger(TcpProxySession.class);
    /** The upstream channel's write buffer, the same as a listener's downstream connections'. */
    private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(32 * 1024, 64 * 1024);
    /** A read batch this large makes a connection splice (HAProxy's splice-auto idea: only bulk pays the set-up). */
    static final int SPLICE_AFTER_BYTES = 16 * 1024;
    /** Tries at splicing a connection; a try fails when a write was still pending as the channels left the loop. */
    private static final int SPLICE_TRIES = 3;
    /**
     * What a successful connect counts as for outlier detection, as in Envoy's TCP proxy: a
     * success, which ends a run of consecutive connect failures; a failure counts like a 5xx.
     */
    private static final int CONNECTED = 200;

    private final TcpProxy proxy;
    private final Downstream downstreamHandler = new Downstream();
    private final Upstream upstreamHandler = new Upstream();
    private Channel downstream;
    private ReadPauses downstreamPauses;
    private Channel upstream;
    private ReadPauses upstreamPauses;
    /** Bytes read from the client before the upstream connection opened; null once it did. */
    private ArrayDeque<ByteBuf> early = new ArrayDeque<>();
    private boolean started;
    private boolean connected;
    private boolean downstreamEnded;
    private boolean upstreamEnded;
    private boolean wroteUpstream;
    private boolean wroteDownstream;
    private Host host;
    private UpstreamOutcomes outcomes;
    /** Whether the listener splices and the cluster's connections are plain TCP (over TLS the bytes must pass the engine). */
    private boolean spliceAllowed;
    private CircuitBreakers breakers;
    private ClusterMetrics clusterMetrics;
    private long startMillis;
    private long startNanos;
    private long lastReadNanos;
    private ScheduledFuture<?> idleTimer;
    private long received;
    private long receivedUncounted;
    private long sent;
    private long sentUncounted;
    private ResponseFlag flag;
    /** The splice relay, from the deregistration of the channels until it hands them back; else null. */
    private SpliceRelay relay;
    /** Channels still to leave the loop before {@link #relay} starts. */
    private int deregistering;
    private boolean relayStarted;
    /** Whether a relay ran on this connection, which counts it once as spliced. */
    private boolean splicedBefore;
    /** A relay stopped at the end of an input that Netty has not read yet: no relay until it has. */
    private boolean endUnread;
    private boolean closing;
    private int spliceTries;

    TcpProxySession(TcpProxy proxy) {
        this.proxy = proxy;
    }

    Downstream downstreamHandler() {
        return downstreamHandler;
    }

    private void start() {
        if (started) {
            return;
        }
        started = true;
        startMillis = System.currentTimeMillis();
        startNanos = System.nanoTime();
        lastReadNanos = startNanos;
        idleTimer = downstream.eventLoop().schedule(this::checkIdle, proxy.idleTimeout().toNanos(), TimeUnit.NANOSECONDS);
        downstreamPauses = ReadPauses.of(downstream);
        downstreamPauses.pause(ReadPauses.CONNECTING);
        Snapshot snapshot = proxy.snapshot();
        Cluster cluster = snapshot.clusters().cluster(proxy.cluster());
        if (cluster == null) {
            refuse("no_cluster", ResponseFlag.NO_CLUSTER_FOUND);
            return;
        }
        clusterMetrics = proxy.metrics().cluster(cluster.name());
        outcomes = snapshot.outliers().outcomes(cluster.name());
        host = cluster.choose(new TcpRouteRequest(ClientAddresses.ip(downstream), OriginalDestination.of(downstream)));
        if (host == null) {
            clusterMetrics.noHealthyHost();
            refuse("no_healthy_upstream", ResponseFlag.NO_HEALTHY_UPSTREAM);
            return;
        }
        breakers = cluster.circuitBreakers();
        if (!breakers.tryOpenConnection(false)) {
            clusterMetrics.connectionOverflow();
            refuse("max_connections", ResponseFlag.UPSTREAM_OVERFLOW);
            return;
        }
        spliceAllowed = proxy.splice() && cluster.config().tls().isEmpty();
        ChannelFuture connect = UpstreamConnector.of(proxy.transport()
                        .clientTo(downstream.eventLoop(), host.address(), cluster.config().connectTimeout())
                        .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
                        .option(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK),
                host, cluster.config().connectTimeout(), cluster.config())
                .connect(upstreamHandler, cluster.config().proxyProtocol().map(version -> ProxyHeaderEncoder.encode(
                        downstream.alloc(), version, ClientAddresses.remote(downstream), ClientAddresses.local(downstream)))
                        .orElse(null));
        upstream = connect.channel();
        connect.addListener((ChannelFutureListener) this::connectDone);
    }

    private void connectDone(ChannelFuture future) {
        if (!future.isSuccess()) {
            breakers.connectionClosed();
            clusterMetrics.connectFailure();
            outcomes.failed(host, UpstreamFailure.CONNECT_FAILURE);
            log.debug("tcp listener {}: cannot connect to {}: {}", proxy.listener(), host, future.cause().toString());
            refuse("connect_failure", ResponseFlag.UPSTREAM_CONNECTION_FAILURE);
            return;
        }
        connected = true;
        outcomes.responded(host, CONNECTED);
        clusterMetrics.connectionOpened();
        host.meters().connectionOpened();
        proxy.meters().connected();
        upstreamPauses = ReadPauses.of(upstream);
        if (!downstream.isActive()) {
            upstream.close();
            return;
        }
        ByteBuf data;
        while ((data = early.poll()) != null) {
            upstream.write(data, upstream.voidPromise());
        }
        early = null;
        upstream.flush();
        if (downstreamEnded) {
            shutdownOutputAfterWrites(upstream);
        }
        downstreamPauses.resume(ReadPauses.CONNECTING);
    }

    /** Closes the connection when no byte was read either way for the idle timeout, else waits for the rest of it. */
    private void checkIdle() {
        if (!downstream.isActive()) {
            return;
        }
        long timeout = proxy.idleTimeout().toNanos();
        long quiet = System.nanoTime() - lastReadNanos;
        if (quiet >= timeout) {
            proxy.meters().idleTimeout();
            downstream.close();
        } else {
            idleTimer = downstream.eventLoop().schedule(this::checkIdle, timeout - quiet, TimeUnit.NANOSECONDS);
        }
    }

    private void refuse(String reason, ResponseFlag why) {
        proxy.meters().noUpstream(reason);
        flag = why;
        downstream.close();
    }

    /** Sends a FIN on {@code channel} once everything written to it before has gone out. */
    private static void shutdownOutputAfterWrites(Channel channel) {
        EpollHalfClose.beforeFlush(channel);
        channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener((ChannelFutureListener) f -> {
            if (channel.isActive()) {
                ((DuplexChannel) channel).shutdownOutput();
            }
        });
    }

    /** Closes {@code channel} once everything written to it before has gone out. */
    private static void closeAfterWrites(Channel channel) {
        if (channel.isActive()) {
            EpollHalfClose.beforeFlush(channel);
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        } else {
            channel.close();
        }
    }

    /**
     * Closes the connection once both inputs ended; while the channels are leaving the loop for a
     * relay, not before they are back ({@link #handedBack}), or the close would go unnoticed.
     */
    private void closeIfBothEnded() {
        if (downstreamEnded && upstreamEnded && (relay == null || relayStarted)) {
            closeAfterWrites(downstream);
            closeAfterWrites(upstream);
        }
    }

    /** At the end of a read batch of either side: counts its bytes, and marks the connection busy. */
    private void readBatchDone() {
        lastReadNanos = System.nanoTime();
        countBytes();
    }

    private void countBytes() {
        if (receivedUncounted > 0) {
            proxy.meters().received(receivedUncounted);
            received += receivedUncounted;
            receivedUncounted = 0;
        }
        if (sentUncounted > 0) {
            proxy.meters().sent(sentUncounted);
            sent += sentUncounted;
            sentUncounted = 0;
        }
    }

    /**
     * After a read batch of {@code batchBytes}: starts splicing when the listener allows it, the
     * batch is bulk, both sides are open (or one's input ended and its FIN was passed on) and
     * neither has a write pending (the relay writes from then on, and Netty could not finish a
     * pending write once its channel left the loop).
     */
    private void maybeSplice(long batchBytes) {
        if (!spliceAllowed || relay != null || spliceTries >= SPLICE_TRIES || batchBytes < SPLICE_AFTER_BYTES
                || !readyToSplice()) {
            return;
        }
        relay = new SpliceRelay(this, downstream, upstream, downstreamEnded, upstreamEnded);
        spliceTries++;
        downstreamPauses.pause(ReadPauses.SPLICING);
        upstreamPauses.pause(ReadPauses.SPLICING);
        deregistering = 2;
        ChannelFutureListener left = f -> deregistered();
        downstream.deregister().addListener(left);
        upstream.deregister().addListener(left);
    }

    private boolean readyToSplice() {
        return connected && !closing && !endUnread && !(downstreamEnded && upstreamEnded) && downstream.isActive()
                && upstream.isActive() && nothingPending(downstream) && nothingPending(upstream)
                && (!downstreamEnded || outputShut(upstream)) && (!upstreamEnded || outputShut(downstream));
    }

    /** Whether {@code channel}'s FIN went out: the end of the other side's input was passed on. */
    private static boolean outputShut(Channel channel) {
        return channel instanceof DuplexChannel duplex && duplex.isOutputShutdown();
    }

    /** Whether nothing waits to be written to {@code channel}; Netty drops the buffer of an output shut down. */
    private static boolean nothingPending(Channel channel) {
        ChannelOutboundBuffer pending = channel.unsafe().outboundBuffer();
        return pending == null ? outputShut(channel) : pending.isEmpty();
    }

    /** A channel left the loop; once both have, the relay starts, unless the connection changed meanwhile. */
    private void deregistered() {
        if (--deregistering > 0) {
            return;
        }
        if (readyToSplice() && relay.start()) {
            relayStarted = true;
            if (!splicedBefore) {
                splicedBefore = true;
                proxy.meters().spliced();
            }
            return;
        }
        handedBack(null, null, true, false);
    }

    /** Bytes the relay moved: counted, and the connection marked busy, like a read batch. */
    void spliced(boolean fromClient, long bytes) {
        proxy.meters().splicedBytes(bytes);
        if (fromClient) {
            receivedUncounted += bytes;
        } else {
            sentUncounted += bytes;
        }
        readBatchDone();
    }

    /**
     * The relay stopped (or never started): both channels go back on the loop, what its pipes held
     * is written on, and reading resumes as the other side's writability allows.
     *
     * @param toUpstream bytes read from the client not yet sent, or null; released here
     * @param toDownstream bytes read from the host not yet sent, or null; released here
     * @param intact false when bytes were lost, which closes the connection
     * @param inputEnded whether the relay stopped at the end of an input, after which the other
     *     direction may splice again; after an error or a close none does
     */
    void handedBack(ByteBuf toUpstream, ByteBuf toDownstream, boolean intact, boolean inputEnded) {
        if (relayStarted && !inputEnded) {
            spliceTries = SPLICE_TRIES;
        }
        endUnread = relayStarted && inputEnded;
        relay = null;
        relayStarted = false;
        registerAgain(downstream);
        registerAgain(upstream);
        if (!intact) {
            downstream.close();
            upstream.close();
        }
        writeLeft(upstream, toUpstream, upstreamEnded);
        writeLeft(downstream, toDownstream, downstreamEnded);
        if (!upstream.isWritable()) {
            downstreamPauses.pause(ReadPauses.PEER_UNWRITABLE);
        }
        if (!downstream.isWritable()) {
            upstreamPauses.pause(ReadPauses.PEER_UNWRITABLE);
        }
        downstreamPauses.resume(ReadPauses.SPLICING);
        upstreamPauses.resume(ReadPauses.SPLICING);
        closeIfBothEnded();
    }

    /** Writes what a pipe held to {@code channel}, whose own input {@code ended} (see {@link EpollHalfClose}). */
    private static void writeLeft(Channel channel, ByteBuf data, boolean ended) {
        if (ended) {
            EpollHalfClose.beforeFlush(channel);
        }
        if (data == null) {
            channel.flush();
        } else if (channel.isActive()) {
            channel.writeAndFlush(data, channel.voidPromise());
        } else {
            data.release();
        }
    }

    /** Puts an open channel that left the loop back on it (at once: this runs on that loop). */
    private void registerAgain(Channel channel) {
        if (!channel.isOpen() || channel.isRegistered()) {
            return;
        }
        ChannelFuture registered = downstream.eventLoop().register(channel);
        if (registered.isDone() && !registered.isSuccess()) {
            log.warn("tcp listener {}: cannot put {} back on its event loop, closing it: {}", proxy.listener(), channel,
                    registered.cause().toString());
            channel.unsafe().close(channel.voidPromise());
        }
    }

    /**
     * {@code channel} is about to close: a running relay hands both channels back first, and a
     * channel that already left the loop for a relay still starting comes back, so that the close
     * reaches the handlers (counters, breaker, access log) as usual.
     */
    private void beforeClose(Channel channel) {
        if (relay == null) {
            return;
        }
        closing = true;
        if (relayStarted) {
            relay.handBack();
        } else {
            registerAgain(channel);
        }
    }

    private void logAccess() {
        AccessLogSink accessLog = proxy.accessLog();
        if (accessLog == null) {
            return;
        }
        accessLog.log(new AccessLogEntry(startMillis, proxy.listener(), "TCP", null, null, null, 0, received, sent,
                (System.nanoTime() - startNanos) / 1000, host == null ? null : host.address().getHostString() + ":"
                        + host.address().getPort(), null, null, flag == null ? ResponseFlag.NONE : flag.code(),
                ClientAddresses.text(downstream), null, proxy.cluster(), null, null, false, null, null, null,
                null, null));
    }

    /** The client's side: its bytes go upstream. */
    final class Downstream extends ChannelDuplexHandler {

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            downstream = ctx.channel();
            downstream.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
            if (downstream.isActive()) {
                start();
            }
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            start();
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof ByteBuf data)) {
                ReferenceCountUtil.release(msg);
                return;
            }
            receivedUncounted += data.readableBytes();
            if (connected) {
                upstream.write(data, upstream.voidPromise());
                wroteUpstream = true;
            } else if (early != null && started) {
                early.add(data);
            } else {
                data.release();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (wroteUpstream) {
                wroteUpstream = false;
                if (upstreamEnded) {
                    EpollHalfClose.beforeFlush(upstream);
                }
                upstream.flush();
                if (!upstream.isWritable()) {
                    downstreamPauses.pause(ReadPauses.PEER_UNWRITABLE);
                }
            }
            long batch = receivedUncounted;
            readBatchDone();
            maybeSplice(batch);
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (upstreamPauses != null && downstream.isWritable()) {
                upstreamPauses.resume(ReadPauses.PEER_UNWRITABLE);
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ChannelInputShutdownEvent) {
                downstreamEnded = true;
                endUnread = false;
                if (connected) {
                    shutdownOutputAfterWrites(upstream);
                }
                closeIfBothEnded();
            } else {
                ctx.fireUserEventTriggered(evt);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (early != null) {
                early.forEach(ByteBuf::release);
                early.clear();
            }
            if (upstream != null) {
                closeAfterWrites(upstream);
            }
            if (idleTimer != null) {
                idleTimer.cancel(false);
            }
            countBytes();
            logAccess();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            HandlerFailures.caught(log, ctx.channel(), cause,
                    proxy.metrics().listener(proxy.listener()).connectionErrors(), true);
            ctx.close();
        }

        @Override
        public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
            beforeClose(ctx.channel());
            ctx.close(promise);
        }
    }

    /** The host's side: its bytes go to the client. */
    final class Upstream extends ChannelDuplexHandler {

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf data = (ByteBuf) msg;
            sentUncounted += data.readableBytes();
            downstream.write(data, downstream.voidPromise());
            wroteDownstream = true;
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (wroteDownstream) {
                wroteDownstream = false;
                if (downstreamEnded) {
                    EpollHalfClose.beforeFlush(downstream);
                }
                downstream.flush();
                if (!downstream.isWritable()) {
                    upstreamPauses.pause(ReadPauses.PEER_UNWRITABLE);
                }
            }
            long batch = sentUncounted;
            readBatchDone();
            maybeSplice(batch);
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (upstream.isWritable()) {
                downstreamPauses.resume(ReadPauses.PEER_UNWRITABLE);
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ChannelInputShutdownEvent) {
                upstreamEnded = true;
                endUnread = false;
                shutdownOutputAfterWrites(downstream);
                closeIfBothEnded();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            breakers.connectionClosed();
            clusterMetrics.connectionClosed();
            host.meters().connectionClosed();
            proxy.meters().disconnected();
            closeAfterWrites(downstream);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            HandlerFailures.caught(log, ctx.channel(), cause, clusterMetrics.connectionErrors(), false);
            ctx.close();
        }

        @Override
        public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
            beforeClose(ctx.channel());
            ctx.close(promise);
        }
    }
}
