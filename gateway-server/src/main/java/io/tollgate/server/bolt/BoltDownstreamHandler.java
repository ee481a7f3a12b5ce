package io.tollgate.server.bolt;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.protocols.bolt.BoltCodecException;
import io.tollgate.protocols.bolt.BoltDialect;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.bolt.BoltHeartbeats;
import io.tollgate.protocols.bolt.BoltResponses;
import io.tollgate.protocols.bolt.BoltStatus;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.Host;
import io.tollgate.router.route.Route;
import io.tollgate.server.Snapshot;
import io.tollgate.server.transport.ClientAddresses;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proxy end of one downstream Bolt connection. Requests are independent and answered in
 * whatever order their responses come: each is routed by its {@code service} header, forwarded
 * on a multiplexed upstream connection of this event loop, and its response written back with the
 * caller's request id. Heartbeats are answered here and never forwarded. Whatever the gateway
 * knows already (no route, no host, overflow of the circuit breakers, timeout, lost upstream) is
 * answered at once with a Bolt status, overflow with {@link BoltStatus#SERVER_THREADPOOL_BUSY}; a malformed frame is answered {@link BoltStatus#CODEC_EXCEPTION} and closes only
 * this connection.
 *
 * <p>Everything written during a read batch is flushed once, when the batch ends.
 *
 * <p>Backpressure, without ever pausing a shared upstream connection for one client:
 * <ul>
 *   <li>while an upstream connection this one sent to cannot take more, this connection stops
 *       reading (its further requests stay in the client's socket) until that upstream can;</li>
 *   <li>while this connection cannot take more (its client reads slower than its responses
 *       come), it stops reading new requests; responses to the calls already in flight still
 *       come and queue here. A client whose queue, past the write buffer's low watermark, already
 *       holds more than the listener's {@code max_frame_bytes} when a further response comes is
 *       closed: it has stopped reading, and waiting for it would hold memory without bound.</li>
 * </ul>
 * When this connection closes, its calls in flight end at once: their upstream ids are forgotten
 * (a late response is dropped and counted), their timers cancelled, and the frames not yet sent
 * dropped.
 */
final class BoltDownstreamHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(BoltDownstreamHandler.class);
    private static final WarnLimiter MALFORMED_WARNINGS = new WarnLimiter(TimeUnit.SECONDS.toNanos(10));
    private static final WarnLimiter SLOW_CLIENT_WARNINGS = new WarnLimiter(TimeUnit.SECONDS.toNanos(10));

    private final BoltProxy proxy;
    private final InFlightCalls calls = new InFlightCalls();
    private final List<BoltUpstreamConnection> fullUpstreams = new ArrayList<>(1);
    private ChannelHandlerContext ctx;
    private BatchedChannel channel;
    private BoltLoop loop;
    private boolean tooSlow;
    private String clientIp;

    BoltDownstreamHandler(BoltProxy proxy) {
        this.proxy = proxy;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.channel = new BatchedChannel(ctx.channel());
        this.loop = proxy.upstreams().loop(ctx.channel().eventLoop());
        proxy.listenerMetrics().connectionOpened();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        proxy.listenerMetrics().connectionClosed();
        BoltCall call;
        while ((call = calls.poll()) != null) {
            call.abandon();
        }
        for (int i = 0; i < fullUpstreams.size(); i++) {
            fullUpstreams.get(i).unpause(this);
        }
        fullUpstreams.clear();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (!ctx.channel().isWritable()) {
            ctx.flush();
        }
        updateReading();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof BoltFrame)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        BoltFrame frame = (BoltFrame) msg;
        switch (frame.kind()) {
            case REQUEST, ONEWAY -> request(frame);
            case HEARTBEAT -> {
                write(BoltHeartbeats.ack(ctx.alloc(), frame));
                frame.release();
            }
            default -> frame.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        loop.flush();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            log.debug("{}: Bolt connection idle, closing", ctx.channel().remoteAddress());
            ctx.close();
            return;
        }
        ReferenceCountUtil.release(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof BoltCodecException) {
            malformed((BoltCodecException) cause);
            return;
        }
        log.debug("{}: downstream Bolt connection failed", ctx.channel().remoteAddress(), cause);
        ctx.close();
    }

    /**
     * Writes a frame or gateway-made buffer (ownership passes) for the batch's flush; closes a
     * client that stopped reading instead (see the class comment).
     *
     * @return false when {@code msg} was dropped: the connection is closed or closing
     */
    boolean write(Object msg) {
        Channel ch = ctx.channel();
        if (tooSlow || (!ch.isWritable() && ch.bytesBeforeWritable() > proxy.maxQueuedBytes())) {
            ReferenceCountUtil.release(msg);
            closeTooSlow();
            return false;
        }
        return loop.write(channel, msg);
    }

    /** Answers a request with a gateway-made status and records it; flushed with the batch. */
    void reply(BoltRecord record, BoltDialect dialect, int requestId, BoltStatus status) {
        ByteBuf response = BoltResponses.status(ctx.alloc(), dialect, requestId, status);
        int length = response.readableBytes();
        if (write(response)) {
            record.sent(length);
        } else {
            record.flag(ResponseFlag.DOWNSTREAM_CONNECTION_TERMINATION);
        }
        record.finish(status.httpStatus());
    }

    /** A call of this connection ended, whichever way. */
    void ended(BoltCall call) {
        calls.remove(call);
    }

    /**
     * Stops reading because {@code upstream} is full.
     *
     * @return false when that upstream already paused this connection
     */
    boolean pausedBy(BoltUpstreamConnection upstream) {
        if (fullUpstreams.contains(upstream)) {
            return false;
        }
        fullUpstreams.add(upstream);
        updateReading();
        return true;
    }

    /** {@code upstream} can take more again, or is gone. */
    void resumedBy(BoltUpstreamConnection upstream) {
        fullUpstreams.remove(upstream);
        updateReading();
    }

    /** Reads while every upstream it sent to takes more and its own client keeps up. */
    private void updateReading() {
        Channel ch = ctx.channel();
        ch.config().setAutoRead(fullUpstreams.isEmpty() && ch.isWritable());
    }

    private void closeTooSlow() {
        if (tooSlow) {
            return;
        }
        tooSlow = true;
        proxy.listenerMetrics().error("bolt_slow_client");
        if (SLOW_CLIENT_WARNINGS.tryAcquire()) {
            log.warn("{}: Bolt client stopped reading with more than {} bytes of responses queued, closing it",
                    ctx.channel().remoteAddress(), proxy.maxQueuedBytes());
        }
        ctx.close();
    }

    private void request(BoltFrame frame) {
        BoltRecord record;
        BoltRouteView view = new BoltRouteView(frame, clientIp());
        try {
            record = new BoltRecord(proxy, frame.protocolCode(), frame.service(), frame.method(),
                    (int) frame.requestId(), frame.frameLength(), String.valueOf(ctx.channel().remoteAddress()));
        } catch (BoltCodecException e) {
            boolean twoWay = frame.kind() == BoltFrame.Kind.REQUEST;
            BoltDialect dialect = frame.dialect();
            int id = (int) frame.requestId();
            frame.release();
            malformed(e, twoWay, dialect, id);
            return;
        }
        Snapshot snapshot = proxy.snapshot();
        Route route = snapshot.routeTable(proxy.listenerName()).route(view);
        record.route(route);
        if (route == null || route.kind() != Route.Kind.FORWARD) {
            record.flag(ResponseFlag.NO_ROUTE);
            proxy.listenerMetrics().error("no_route");
            refuse(frame, record, BoltStatus.NO_PROCESSOR);
            return;
        }
        String clusterName = route.chooseCluster(ThreadLocalRandom.current().nextInt());
        Cluster cluster = snapshot.clusters().cluster(clusterName);
        Host host = cluster == null ? null : cluster.choose(view, route.metadataMatch(), route.hashPolicy());
        if (host == null) {
            record.flag(cluster == null ? ResponseFlag.NO_CLUSTER_FOUND : ResponseFlag.NO_HEALTHY_UPSTREAM);
            proxy.metrics().cluster(clusterName).noHealthyHost();
            refuse(frame, record, BoltStatus.CONNECTION_CLOSED);
            return;
        }
        record.upstreamHost(host.id());
        BoltTarget target = new BoltTarget(loop, route, cluster, view, cluster.circuitBreakers(route.priority()),
                snapshot.outliers().outcomes(clusterName), proxy.metrics().cluster(clusterName));
        if (frame.kind() == BoltFrame.Kind.ONEWAY) {
            forwardOneway(frame, record, target, host);
            return;
        }
        long routeTimeout = route.timeout().toMillis();
        int frameTimeout = frame.timeout();
        BoltCall call = new BoltCall(this, record, target, frame);
        calls.add(call);
        call.start(host, frameTimeout > 0 ? Math.min(frameTimeout, routeTimeout) : routeTimeout);
    }

    /** Sends a oneway request, counted as a request of the breakers for as long as the sending takes. */
    private void forwardOneway(BoltFrame frame, BoltRecord record, BoltTarget target, Host host) {
        if (!target.breakers().tryStartRequest()) {
            target.metrics().requestOverflow();
            overflow(frame, record);
            return;
        }
        try {
            BoltUpstreamConnection connection = target.pool(host).connection();
            if (!connection.send(frame, null)) {
                target.metrics().poolOverflow();
                overflow(frame, record);
                return;
            }
            record.finish(BoltStatus.SUCCESS.httpStatus());
            pauseWhileFull(connection);
        } finally {
            target.breakers().requestFinished();
        }
    }

    /** Stops reading while {@code connection}, which this connection just sent to, cannot take more. */
    void pauseWhileFull(BoltUpstreamConnection connection) {
        if (!connection.writable()) {
            connection.pause(this);
        }
    }

    private void overflow(BoltFrame frame, BoltRecord record) {
        record.flag(ResponseFlag.UPSTREAM_OVERFLOW);
        refuse(frame, record, BoltStatus.SERVER_THREADPOOL_BUSY);
    }

    /** Answers a request the gateway will not forward (a oneway one only counts) and releases it. */
    private void refuse(BoltFrame frame, BoltRecord record, BoltStatus status) {
        if (frame.kind() == BoltFrame.Kind.REQUEST) {
            reply(record, frame.dialect(), (int) frame.requestId(), status);
        } else {
            record.finish(status.httpStatus());
        }
        frame.release();
    }

    private void malformed(BoltCodecException e) {
        malformed(e, e.expectsResponse() && e.requestId().isPresent(), e.dialect().orElse(null),
                e.requestId().orElse(0));
    }

    /** Counts and (rate-limited) logs a malformed frame, answers it when its sender waits, and closes. */
    private void malformed(BoltCodecException e, boolean answer, BoltDialect dialect, int requestId) {
        proxy.listenerMetrics().error("bolt_malformed_frame");
        if (MALFORMED_WARNINGS.tryAcquire()) {
            log.warn("{}: malformed Bolt frame, closing the connection: {}", ctx.channel().remoteAddress(),
                    e.getMessage());
        }
        if (!answer || dialect == null || !ctx.channel().isActive()) {
            ctx.close();
            return;
        }
        ctx.writeAndFlush(BoltResponses.status(ctx.alloc(), dialect, requestId, BoltStatus.CODEC_EXCEPTION))
                .addListener(ChannelFutureListener.CLOSE);
    }

    /** The caller's IP address as text, formatted once per connection. */
    private String clientIp() {
        if (clientIp == null) {
            clientIp = ClientAddresses.ip(ctx.channel());
        }
        return clientIp;
    }
}
