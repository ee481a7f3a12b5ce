package io.tollgate.server.rpc;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.protocols.rpc.RpcCodec;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.protocols.rpc.RpcFrameDecoder;
import io.tollgate.protocols.rpc.RpcFrameEncoder;
import io.tollgate.router.outlier.UpstreamFailure;
import io.tollgate.server.tls.UpstreamConnector;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import io.tollgate.server.transport.HandlerFailures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One multiplexed RPC connection to an upstream host, and the last handler of its pipeline.
 *
 * <p>Every frame sent on it gets a request id of this connection's own, written in place into the
 * frame's bytes; two-way attempts are remembered by that id until their response, their end or the
 * connection's end. Frames sent while the connection is still being established wait in a queue
 * bounded by the cluster's {@code max_pending_requests} and counted in the pending requests of the
 * cluster's circuit breakers; an attempt that ends before the connection is up takes its frame out
 * of the queue, so it is never sent. A failed connect is always reported on a later turn of the
 * event loop, so that the attempts that sent to the connection hear of it as a connect failure. When the connection has been idle for
 * the cluster's heartbeat interval it sends a heartbeat, and when that is still unanswered an
 * interval later it closes; a closed connection fails each of its calls, which answer connection
 * closed unless they retry. Ids count up to the codec's largest and wrap, skipping those in flight.
 * Confined to its event loop.
 *
 * <p>Backpressure: while the socket cannot take more, every downstream connection that sends
 * here stops reading, and all of them read again once it can (or once it closed). The connection
 * itself always keeps reading: the responses it carries belong to many callers.
 */
final class RpcUpstreamConnection extends RpcFrameHandler {

    private static final Logger log = LoggerFactory.getLogger(RpcUpstreamConnection.class);

    private final RpcHostPool pool;
    private final AttemptsById<RpcAttempt> calls = new AttemptsById<>();
    private final ArrayDeque<RpcFrame> waiting = new ArrayDeque<>();
    private final List<RpcDownstreamHandler> paused = new ArrayList<>();
    private BatchedChannel channel;
    private long lastId;
    private boolean connected;
    private boolean closed;
    private boolean heartbeatUnanswered;
    private boolean draining;
    /** Whether the connection failed with an I/O error (a reset), rather than closing cleanly. */
    private boolean reset;

    private RpcUpstreamConnection(RpcHostPool pool) {
        this.pool = pool;
    }

    /** Starts connecting; the connection accepts frames at once and sends them when connected. */
    static RpcUpstreamConnection open(RpcHostPool pool, UpstreamConnector connector) {
        RpcUpstreamConnection connection = new RpcUpstreamConnection(pool);
        long heartbeatMillis = pool.cluster().heartbeatInterval().toMillis();
        ChannelFuture future = connector.connect(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline()
                        .addLast("codec", new RpcFrameDecoder(pool.codec()))
                        .addLast("encoder", RpcFrameEncoder.INSTANCE)
                        .addLast("heartbeat", new IdleStateHandler(0, 0, heartbeatMillis, TimeUnit.MILLISECONDS))
                        .addLast("upstream", connection);
            }
        });
        future.addListener(f -> {
            if (!f.isSuccess()) {
                connection.connectFailedLater(f.cause());
            }
        });
        return connection;
    }

    /**
     * Sends a request upstream under a new id of this connection. Ownership of {@code frame} passes
     * here unless the answer is false.
     *
     * @param attempt the two-way attempt waiting for the response, or null for a oneway request
     * @return false when the frame cannot even wait for the connection (the pending queue of the
     *     connection or of the cluster's breakers is full, or the connection closed): the caller
     *     still owns the frame and answers overflow
     */
    boolean send(RpcFrame frame, RpcAttempt attempt) {
        if (closed || (!connected && (waiting.size() >= pool.cluster().maxPendingRequests()
                || !pool.breakers().tryEnqueue()))) {
            return false;
        }
        long id = nextId();
        frame.requestId(id);
        if (attempt != null) {
            calls.put(id, attempt);
            attempt.sentOn(this, id);
        }
        if (connected) {
            pool.loop().write(channel, frame);
        } else {
            waiting.addLast(frame);
        }
        return true;
    }

    /**
     * Forgets an attempt that ended otherwise (it timed out, or its caller left): a late response
     * is dropped and counted, and a frame still waiting for the connection is dropped unsent.
     * Nothing happens when the connection no longer knows the attempt under that id.
     *
     * @return whether the request had been sent upstream and was still awaited
     */
    boolean forget(long upstreamId, RpcAttempt attempt) {
        if (calls.get(upstreamId) != attempt) {
            return false;
        }
        calls.remove(upstreamId);
        if (connected) {
            closeIfDrained();
            return true;
        }
        for (Iterator<RpcFrame> it = waiting.iterator(); it.hasNext(); ) {
            RpcFrame frame = it.next();
            if (frame.kind() == RpcFrame.Kind.REQUEST && frame.requestId() == upstreamId) {
                it.remove();
                pool.breakers().dequeued();
                frame.release();
                return false;
            }
        }
        return false;
    }

    /**
     * Whether everything written to the connection has left for the socket: then no frame sent
     * here is still read by the connection, and its bytes may be rewritten for a retry.
     */
    boolean wroteEverything() {
        ChannelOutboundBuffer buffer = connected ? channel.channel().unsafe().outboundBuffer() : null;
        return buffer == null || buffer.totalPendingWriteBytes() == 0;
    }

    /** Whether the socket takes more now; a connection still being established counts as writable. */
    boolean writable() {
        return !connected || channel.channel().isWritable();
    }

    /** Stops {@code downstream} reading until this connection is writable again or gone. */
    void pause(RpcDownstreamHandler downstream) {
        if (downstream.pausedBy(this)) {
            paused.add(downstream);
        }
    }

    /** Forgets a paused downstream connection that closed. */
    void unpause(RpcDownstreamHandler downstream) {
        paused.remove(downstream);
    }

    RpcHostPool pool() {
        return pool;
    }

    /** Takes no new requests (its pool is retired) and closes once its calls have ended. */
    void closeWhenIdle() {
        draining = true;
        closeIfDrained();
    }

    /** Closes the connection when it is up and carries no call: its host died. */
    void closeIfIdle() {
        if (connected && calls.isEmpty()) {
            channel.channel().close();
        }
    }

    private void closeIfDrained() {
        if (draining && connected && calls.isEmpty()) {
            channel.channel().close();
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = new BatchedChannel(ctx.channel());
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        connected = true;
        pool.metrics().connectionOpened();
        pool.hostAlive();
        RpcFrame frame;
        while ((frame = waiting.pollFirst()) != null) {
            pool.breakers().dequeued();
            pool.loop().write(channel, frame);
        }
        pool.loop().flush();
        closeIfDrained();
        ctx.fireChannelActive();
    }

    @Override
    RpcCodec codec() {
        return pool.codec();
    }

    @Override
    RpcLoop loop() {
        return pool.loop();
    }

    @Override
    boolean write(Object msg) {
        return pool.loop().write(channel, msg);
    }

    @Override
    void response(RpcFrame frame) {
        RpcAttempt attempt = calls.remove(frame.requestId());
        if (attempt == null) {
            pool.metrics().lateResponse();
            frame.release();
        } else {
            attempt.respond(frame);
            closeIfDrained();
        }
    }

    @Override
    void heartbeatAcked(RpcFrame ack) {
        heartbeatUnanswered = false;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            resumeAll();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (!(evt instanceof IdleStateEvent)) {
            ReferenceCountUtil.release(evt);
            return;
        }
        if (heartbeatUnanswered) {
            log.warn("{}: upstream did not answer a heartbeat within {}, closing its connection", pool.host(),
                    pool.cluster().heartbeatInterval());
            ctx.close();
            return;
        }
        heartbeatUnanswered = true;
        ctx.writeAndFlush(pool.codec().heartbeat(ctx.alloc(), nextId()));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (connected) {
            pool.metrics().connectionClosed();
        }
        if (reset) {
            pool.hostDied();
        }
        failAll(ResponseFlag.UPSTREAM_CONNECTION_TERMINATION, UpstreamFailure.RESET);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        HandlerFailures.caught(log, ctx.channel(), cause, pool.metrics().connectionErrors(), false);
        reset = cause instanceof IOException;
        ctx.close();
    }

    /**
     * Reports a failed connect on a later turn of the loop: a connect refused at once fails inside
     * {@link #open}, before the pool holds the connection and before the first frame is sent. A
     * loop that no longer takes tasks is shutting down, and hears of it at once.
     */
    private void connectFailedLater(Throwable cause) {
        try {
            pool.loop().eventLoop().execute(() -> connectFailed(cause));
        } catch (RejectedExecutionException shuttingDown) {
            connectFailed(cause);
        }
    }

    private void connectFailed(Throwable cause) {
        log.debug("{}: cannot connect", pool.host(), cause);
        pool.metrics().connectFailure();
        pool.hostDied();
        failAll(ResponseFlag.UPSTREAM_CONNECTION_FAILURE, UpstreamFailure.CONNECT_FAILURE);
    }

    /**
     * Ends the connection's life once: every waiting frame handed back to its attempt when the
     * connect failed (nothing of it was sent, so its call may send it elsewhere) or else dropped,
     * every other attempt failed (its call answers connection-closed or retries), every paused
     * downstream connection reading again.
     */
    private void failAll(ResponseFlag flag, UpstreamFailure failure) {
        if (closed) {
            return;
        }
        closed = true;
        pool.removed(this);
        boolean unsent = failure == UpstreamFailure.CONNECT_FAILURE;
        RpcFrame frame;
        while ((frame = waiting.pollFirst()) != null) {
            pool.breakers().dequeued();
            RpcAttempt attempt = unsent && frame.kind() == RpcFrame.Kind.REQUEST ? calls.remove(frame.requestId()) : null;
            if (attempt == null) {
                frame.release();
            } else {
                attempt.unsent(frame);
            }
        }
        for (RpcAttempt attempt : calls.removeAll()) {
            attempt.fail(flag, failure);
        }
        resumeAll();
        pool.loop().flush();
    }

    private void resumeAll() {
        for (int i = 0; i < paused.size(); i++) {
            paused.get(i).resumedBy(this);
        }
        paused.clear();
    }

    /** The next id not held by a call in flight; ids wrap around past the codec's largest, to 1. */
    private long nextId() {
        long max = pool.codec().maxRequestId();
        do {
            lastId = lastId >= max ? 1 : lastId + 1;
        } while (calls.taken(lastId));
        return lastId;
    }
}
