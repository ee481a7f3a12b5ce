package io.tollgate.server.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.filter.MirrorListener;
import io.tollgate.core.metrics.WarnLimiter;
import io.tollgate.protocols.rpc.RpcCodec;
import io.tollgate.protocols.rpc.RpcCodecException;
import io.tollgate.protocols.rpc.RpcError;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.protocols.rpc.RpcFrameDecoder;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.host.Host;
import io.tollgate.router.route.Route;
import io.tollgate.server.dispatch.DownstreamSide;
import io.tollgate.server.dispatch.GatewayError;
import io.tollgate.server.drain.DrainableConnection;
import io.tollgate.server.drain.ListenerConnections;
import io.tollgate.server.exchange.ExchangeRecord;
import io.tollgate.server.exchange.ExchangeTarget;
import io.tollgate.server.filter.FilterRun;
import io.tollgate.server.filter.StreamFilterChain;
import io.tollgate.server.snapshot.Snapshot;
import io.tollgate.server.tls.PeerIdentity;
import io.tollgate.server.tls.ServerName;
import io.tollgate.server.transport.ClientAddresses;
import io.tollgate.server.transport.HandlerFailures;
import io.tollgate.server.transport.MovableConnection;
import io.tollgate.server.transport.PipelineNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proxy end of one downstream connection of a multiplexed RPC protocol. Requests are
 * independent and answered in whatever order their responses come: each is routed by its service
 * and method, forwarded on a multiplexed upstream connection of this event loop, and its response
 * written back with the caller's request id. Heartbeats are answered here and never forwarded.
 * Whatever the gateway knows already (no route, no host, overflow of the circuit breakers, timeout,
 * lost upstream) is answered at once with the protocol's status for it; a malformed frame is
 * answered {@link RpcError#MALFORMED} when its sender waits, and closes only this connection.
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
 *       holds more than the listener's largest frame when a further response comes is closed: it
 *       has stopped reading, and waiting for it would hold memory without bound.</li>
 * </ul>
 * When this connection closes, its calls in flight end at once: their upstream ids are forgotten
 * (a late response is dropped and counted), their timers cancelled, and the frames not yet sent
 * dropped.
 *
 * <p>Drained, the connection closes once no two-way call has been in flight for
 * {@link DrainableConnection#IDLE_LINGER_MILLIS} (a connection that has sent no frame yet, after
 * its first call): the protocols have no way
 * to tell a client to go elsewhere, and a client whose idle connection closes opens another (to
 * whichever process accepts it now).
 */
final class RpcDownstreamHandler extends RpcFrameHandler
        implements MovableConnection, DrainableConnection, DownstreamSide<RpcRouteView>, CallSide {

    private static final Logger log = LoggerFactory.getLogger(RpcDownstreamHandler.class);
    private static final WarnLimiter MALFORMED_WARNINGS = new WarnLimiter(TimeUnit.SECONDS.toNanos(10));
    private static final WarnLimiter SLOW_CLIENT_WARNINGS = new WarnLimiter(TimeUnit.SECONDS.toNanos(10));

    private final RpcProxy proxy;
    private final RpcCodec codec;
    private final InFlightCalls calls = new InFlightCalls();
    private final List<RpcUpstreamConnection> fullUpstreams = new ArrayList<>(1);
    /** The calls a stream filter holds; made on the first. */
    private List<RpcRouteView> held;
    private ChannelHandlerContext ctx;
    private BatchedChannel channel;
    private RpcLoop loop;
    private boolean tooSlow;
    private boolean draining;
    private final Runnable closeIfNoCall = this::closeIfNoCall;
    private ScheduledFuture<?> drainClose;
    private String clientIp;
    private String peer;
    private String peerIdentity;
    private boolean peerIdentityRead;
    private String serverName;
    private boolean serverNameRead;

    RpcDownstreamHandler(RpcProxy proxy) {
        this.proxy = proxy;
        this.codec = proxy.codec();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.channel = new BatchedChannel(ctx.channel());
        this.loop = proxy.upstreams().loop(ctx.channel().eventLoop());
        proxy.records().listenerMetrics().connectionOpened();
        draining = ListenerConnections.drainRequested(ctx.channel());
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        proxy.records().listenerMetrics().connectionClosed();
        if (drainClose != null) {
            drainClose.cancel(false);
        }
        RpcCall call;
        while ((call = calls.poll()) != null) {
            call.abandon();
        }
        if (held != null) {
            for (RpcRouteView view : held) {
                view.frame().release();
                view.filters().abandon();
            }
            held.clear();
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
    public String protocol() {
        return codec.protocol();
    }

    @Override
    public boolean betweenMessages() {
        return ctx.pipeline().get(PipelineNames.CODEC) instanceof RpcFrameDecoder decoder && decoder.holdsNoBytes();
    }

    /** No call waits for its response or its stream filters, and the decoder holds no part of a frame. */
    @Override
    public boolean quiescent() {
        return noCall() && betweenMessages();
    }

    @Override
    public boolean firstFrameSeen() {
        return ctx.pipeline().get(PipelineNames.FIRST_FRAME) == null;
    }

    @Override
    RpcCodec codec() {
        return codec;
    }

    @Override
    RpcLoop loop() {
        return loop;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            log.debug("{}: {} connection idle, closing", ctx.channel().remoteAddress(), codec.protocol());
            ctx.close();
            return;
        }
        ReferenceCountUtil.release(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable codecError = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (codecError instanceof RpcCodecException) {
            malformed((RpcCodecException) codecError);
            return;
        }
        HandlerFailures.caught(log, ctx.channel(), cause, proxy.records().listenerMetrics().connectionErrors(), true);
        ctx.close();
    }

    /**
     * Writes a frame or gateway-made buffer (ownership passes) for the batch's flush; closes a
     * client that stopped reading instead (see the class comment).
     *
     * @return false when {@code msg} was dropped: the connection is closed or closing
     */
    @Override
    boolean write(Object msg) {
        Channel ch = ctx.channel();
        if (tooSlow || (!ch.isWritable() && ch.bytesBeforeWritable() > proxy.maxQueuedBytes())) {
            ReferenceCountUtil.release(msg);
            closeTooSlow();
            return false;
        }
        return loop.write(channel, msg);
    }

    /** Writes the provider's response with the caller's id back, for the batch's flush; filters see it first. */
    @Override
    public void answer(ExchangeRecord record, FilterRun filters, RpcFrame response, long callerId, int status) {
        if (filters != null) {
            filters.response(new RpcFilterResponse(status, false));
        }
        int length = response.frameLength();
        record.responseHeaders(response);
        response.requestId(callerId);
        if (write(response)) {
            record.sent(length);
        } else {
            record.flag(ResponseFlag.DOWNSTREAM_CONNECTION_TERMINATION);
        }
        record.finish(status);
    }

    /**
     * Answers a request with a gateway-made {@code error} and records it; flushed with the batch.
     * The request's filters ({@code filters}, null for none) see the answer first.
     */
    @Override
    public void reply(ExchangeRecord record, FilterRun filters, int replyForm, long requestId, RpcError error) {
        if (filters != null) {
            filters.response(new RpcFilterResponse(codec.httpStatus(error), true));
        }
        ByteBuf response = codec.errorReply(ctx.alloc(), replyForm, requestId, error);
        int length = response.readableBytes();
        if (write(response)) {
            record.sent(length);
        } else {
            record.flag(ResponseFlag.DOWNSTREAM_CONNECTION_TERMINATION);
        }
        record.finish(codec.httpStatus(error));
    }

    /** Counts a call the gateway answers with an error, by {@code reason}. */
    @Override
    public void failed(String reason) {
        proxy.records().listenerMetrics().error(reason);
    }

    /** A call of this connection ended, whichever way. */
    @Override
    public void ended(RpcCall call) {
        calls.remove(call);
        if (draining) {
            closeLaterIfNoCall();
        }
    }

    @Override
    public void drain() {
        draining = true;
        if (ctx.pipeline().get(PipelineNames.FIRST_FRAME) == null) {
            closeLaterIfNoCall();
        }
    }

    /** Draining: once the last call ended, closes the connection {@link #IDLE_LINGER_MILLIS} later. */
    private void closeLaterIfNoCall() {
        if (!noCall()) {
            return;
        }
        if (drainClose != null) {
            drainClose.cancel(false);
        }
        drainClose = ctx.executor().schedule(closeIfNoCall, IDLE_LINGER_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Draining: closes the connection, after the answers written so far, unless a call came meanwhile. */
    private void closeIfNoCall() {
        if (noCall() && ctx.channel().isActive()) {
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** Whether no two-way call is in flight, nor held by a stream filter. */
    private boolean noCall() {
        return calls.isEmpty() && (held == null || held.isEmpty());
    }

    /**
     * Stops reading because {@code upstream} is full.
     *
     * @return false when that upstream already paused this connection
     */
    boolean pausedBy(RpcUpstreamConnection upstream) {
        if (fullUpstreams.contains(upstream)) {
            return false;
        }
        fullUpstreams.add(upstream);
        updateReading();
        return true;
    }

    /** {@code upstream} can take more again, or is gone. */
    void resumedBy(RpcUpstreamConnection upstream) {
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
        proxy.records().listenerMetrics().error(codec.protocol() + "_slow_client");
        if (SLOW_CLIENT_WARNINGS.tryAcquire()) {
            log.warn("{}: {} client stopped reading with more than {} bytes of responses queued, closing it",
                    ctx.channel().remoteAddress(), codec.protocol(), proxy.maxQueuedBytes());
        }
        ctx.close();
    }

    @Override
    void request(RpcFrame frame) {
        ExchangeRecord record;
        RpcRouteView view = new RpcRouteView(this, frame, clientIp());
        try {
            String service = frame.service();
            String method = frame.method();
            record = new ExchangeRecord(proxy.records(), frame.protocolName(), method,
                    service == null ? null : view.path(), service, peer(), peerIdentity(), true);
            record.requestId(frame.requestId());
            record.received(frame.frameLength());
            record.requestHeaders(frame);
        } catch (RpcCodecException e) {
            boolean twoWay = frame.kind() == RpcFrame.Kind.REQUEST;
            int replyForm = frame.replyForm();
            long id = frame.requestId();
            frame.release();
            malformed(e, twoWay, replyForm, id);
            return;
        }
        view.record(record);
        proxy.dispatcher().dispatch(view, this);
    }

    @Override
    public void refuse(RpcRouteView view, GatewayError error) {
        refuse(view.frame(), view.record(), view.filters(), switch (error) {
            case OVERLOAD -> RpcError.OVERFLOW;
            case NO_ROUTE -> RpcError.NO_ROUTE;
            case NO_CLUSTER, NO_HEALTHY_UPSTREAM -> RpcError.NO_HEALTHY_UPSTREAM;
        });
    }

    @Override
    public FilterRun filterRun(RpcRouteView view, StreamFilterChain chain) {
        return new FilterRun(chain, view, loop.deadlines(), loop.eventLoop(), proxy.listenerName());
    }

    @Override
    public void held(RpcRouteView view) {
        if (held == null) {
            held = new ArrayList<>(2);
        }
        held.add(view);
    }

    @Override
    public void passed(RpcRouteView view) {
        view.forward();
    }

    /** A call its filters let through goes on with the route's action. */
    void act(RpcRouteView view) {
        proxy.dispatcher().act(view, this);
    }

    /**
     * {@code frame} with the headers its filters changed, a new frame that replaces it (which is
     * released); {@code frame} itself, counted as {@code rpc_header_rewrite}, when its header map is
     * malformed or the change breaks the protocol's limits.
     */
    RpcFrame withHeaders(RpcFrame frame, Map<String, String> changes) {
        RpcFrame rewritten;
        try {
            rewritten = frame.withHeaders(ctx.alloc(), changes);
        } catch (RpcCodecException e) {
            proxy.records().listenerMetrics().error("rpc_header_rewrite");
            return frame;
        }
        frame.release();
        return rewritten;
    }

    /** A held call's filters let it through or answered it: it is no longer held. */
    void filtersPassed(RpcRouteView view) {
        if (held != null) {
            held.remove(view);
        }
        if (draining) {
            closeLaterIfNoCall();
        }
    }

    /** A stream filter answers a call: the protocol's status for {@code httpStatus}, with the caller's id. */
    void filterAnswered(RpcRouteView view, int httpStatus, String reason) {
        proxy.records().listenerMetrics().error(reason);
        refuse(view.frame(), view.record(), view.filters(), RpcError.forHttpStatus(httpStatus));
    }

    /**
     * A call whose route's cluster is a per-service template with no host for it goes to its
     * service's cluster (see {@link #actForService}).
     */
    @Override
    public boolean awaitCluster(RpcRouteView view, String clusterName) {
        ServiceClusters.Lookup found = proxy.serviceClusters().lookup(clusterName, view);
        if (found == null) {
            return false;
        }
        actForService(view, clusterName, found);
        return true;
    }

    /**
     * A call routed to a per-service template goes to its service's cluster; one not served yet is
     * held until it is (or until the registry is known to have no such service), then looked up once more.
     */
    private void actForService(RpcRouteView view, String template, ServiceClusters.Lookup found) {
        if (found.ready() != null) {
            found.ready().whenComplete((done, error) -> ctx.executor().execute(() -> {
                if (!ctx.channel().isActive()) { // the caller left while it waited: nothing to forward
                    refuse(view.frame(), view.record(), view.filters(), RpcError.CONNECTION_CLOSED);
                    return;
                }
                ServiceClusters.Lookup again = proxy.serviceClusters().lookup(template, view);
                actForService(view, template,
                        again == null || again.ready() != null ? new ServiceClusters.Lookup(template, null) : again);
                loop.flush(); // outside a read batch: nothing else flushes what it wrote
            }));
            return;
        }
        Snapshot snapshot = proxy.dispatcher().snapshot();
        Route route = view.route();
        Cluster cluster = snapshot.clusters().cluster(found.cluster());
        proxy.dispatcher().toCluster(view, this, snapshot, found.cluster(), cluster,
                cluster == null ? null : cluster.choose(view, route.metadataMatch(), route.hashPolicy()));
    }

    @Override
    public void forward(RpcRouteView view, ExchangeTarget target, Host host) {
        FilterRun run = view.filters();
        if (run != null) {
            view.forwarding();
        }
        RpcFrame frame = view.frame();
        if (frame.kind() == RpcFrame.Kind.ONEWAY) {
            forwardOneway(frame, view.record(), run, target, host);
            return;
        }
        long routeTimeout = target.route().timeout().toMillis();
        long frameTimeout = frame.timeoutMillis();
        RpcCall call = new RpcCall(this, loop, view.record(), target, frame, run);
        calls.add(call);
        long timeoutMillis = frameTimeout > 0 ? Math.min(frameTimeout, routeTimeout) : routeTimeout;
        call.start(host, TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
    }

    /** Starts a shadow copy of a call about to be forwarded, on this loop; see {@link RpcShadowCopy#start}. */
    void shadow(String cluster, MirrorListener listener, Snapshot snapshot, Route route, RpcFrame frame,
            RpcRouteView view) {
        RpcShadowCopy.start(cluster, listener, snapshot, proxy.records().metrics(), loop, route, frame, view);
    }

    /** Sends a oneway request, counted as a request of the breakers for as long as the sending takes. */
    private void forwardOneway(RpcFrame frame, ExchangeRecord record, FilterRun run, ExchangeTarget target,
            Host host) {
        record.upstream(target, host.id());
        if (!target.breakers().tryStartRequest()) {
            target.metrics().requestOverflow();
            overflow(frame, record, run);
            return;
        }
        try {
            RpcUpstreamConnection connection = loop.pool(target.cluster(), host).connection();
            if (!connection.send(frame, null)) {
                target.metrics().poolOverflow();
                overflow(frame, record, run);
                return;
            }
            record.finish(200);
            pauseWhileFull(connection);
        } finally {
            target.breakers().requestFinished();
        }
    }

    /** Stops reading while {@code connection}, which this connection just sent to, cannot take more. */
    @Override
    public void pauseWhileFull(RpcUpstreamConnection connection) {
        if (!connection.writable()) {
            connection.pause(this);
        }
    }

    private void overflow(RpcFrame frame, ExchangeRecord record, FilterRun run) {
        record.flag(ResponseFlag.UPSTREAM_OVERFLOW);
        refuse(frame, record, run, RpcError.OVERFLOW);
    }

    /** Answers a request the gateway will not forward (a oneway one only counts) and releases it. */
    private void refuse(RpcFrame frame, ExchangeRecord record, FilterRun run, RpcError error) {
        if (frame.kind() == RpcFrame.Kind.REQUEST) {
            reply(record, run, frame.replyForm(), frame.requestId(), error);
        } else {
            record.finish(codec.httpStatus(error));
        }
        frame.release();
    }

    private void malformed(RpcCodecException e) {
        malformed(e, e.expectsResponse() && e.rpcRequestId().isPresent(), e.replyForm(),
                e.rpcRequestId().orElse(0));
    }

    /** Counts and (rate-limited) logs a malformed frame, answers it when its sender waits, and closes. */
    private void malformed(RpcCodecException e, boolean answer, int replyForm, long requestId) {
        proxy.records().listenerMetrics().error(codec.protocol() + "_malformed_frame");
        if (MALFORMED_WARNINGS.tryAcquire()) {
            log.warn("{}: malformed {} frame, closing the connection: {}", ctx.channel().remoteAddress(),
                    codec.protocol(), e.getMessage());
        }
        if (!answer || !ctx.channel().isActive()) {
            ctx.close();
            return;
        }
        ctx.writeAndFlush(codec.errorReply(ctx.alloc(), replyForm, requestId, RpcError.MALFORMED))
                .addListener(ChannelFutureListener.CLOSE);
    }

    /** The client certificate's identity, read once: TLS set it before this handler was installed. */
    String peerIdentity() {
        if (!peerIdentityRead) {
            PeerIdentity identity = PeerIdentity.of(ctx.channel());
            peerIdentity = identity == null ? null : identity.principal();
            peerIdentityRead = true;
        }
        return peerIdentity;
    }

    /** The server name the client asked for in its TLS handshake, or null; read once. */
    String serverName() {
        if (!serverNameRead) {
            serverName = ServerName.requested(ctx.channel());
            serverNameRead = true;
        }
        return serverName;
    }

    /** The caller's address as the access log writes it, formatted once per connection. */
    private String peer() {
        if (peer == null) {
            peer = ClientAddresses.text(ctx.channel());
        }
        return peer;
    }

    /** The caller's IP address as text, formatted once per connection. */
    private String clientIp() {
        if (clientIp == null) {
            clientIp = ClientAddresses.ip(ctx.channel());
        }
        return clientIp;
    }
}
