package io.tollgate.server.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.core.filter.NetworkConnection;
import io.tollgate.core.filter.NetworkFilter;
import io.tollgate.core.filter.NetworkFilterStatus;
import io.tollgate.server.transport.ClientAddresses;
import io.tollgate.server.transport.ReadPauses;
import java.net.SocketAddress;
import java.util.ArrayDeque;

/**
 * Runs one connection's network filters in order, in front of its protocol: the connection's
 * opening and every buffer read pass each filter before going on; bytes written to the client are
 * shown to each. A filter that answers {@link NetworkFilterStatus#STOP} holds the chain: reading
 * pauses ({@link ReadPauses#FILTER}), what was read meanwhile (and the end of the input) waits here
 * in order, and {@link #resume()} carries on from the next filter without blocking the loop.
 * What waits is at most the read batch in flight when the hold began.
 */
final class NetworkFilterHandler extends ChannelDuplexHandler implements NetworkConnection {

    /** Stands for the connection's opening while a filter holds it. */
    private static final Object CONNECT = new Object();

    private final String listener;
    private final NetworkFilter[] filters;
    /** Events held or waiting behind a held one: the connection's opening, buffers, user events. */
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private ReadPauses pauses;
    /** The filter holding the first waiting event, or -1 when none holds. */
    private int heldBy = -1;
    private boolean readCompleteOwed;
    private boolean closed;

    NetworkFilterHandler(String listener, NetworkFilter[] filters) {
        this.listener = listener;
        this.filters = filters;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.pauses = ReadPauses.of(ctx.channel());
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        waiting.add(CONNECT);
        drain(0);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closed) {
            ReferenceCountUtil.release(msg);
            return;
        }
        waiting.add(msg);
        if (heldBy < 0 && waiting.size() == 1) {
            drain(0);
        } else {
            pauses.pause(ReadPauses.FILTER);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (heldBy < 0) {
            ctx.fireChannelReadComplete();
        } else {
            readCompleteOwed = true;
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (waiting.isEmpty()) {
            ctx.fireUserEventTriggered(evt);
        } else {
            waiting.add(new UserEvent(evt));
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf data) {
            for (NetworkFilter filter : filters) {
                filter.onWrite(this, data);
            }
        }
        ctx.write(msg, promise);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closed = true;
        releaseWaiting();
        for (NetworkFilter filter : filters) {
            filter.onClose(this);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseWaiting();
    }

    /**
     * Passes the waiting events on, the first from filter {@code from}, the others from the
     * first filter, until one is held or none is left; then reading resumes.
     */
    private void drain(int from) {
        int start = from;
        while (!waiting.isEmpty() && !closed) {
            Object event = waiting.peek();
            int stoppedAt = runFilters(event, start);
            if (closed) {
                return;
            }
            if (stoppedAt >= 0) {
                heldBy = stoppedAt;
                pauses.pause(ReadPauses.FILTER);
                return;
            }
            waiting.poll();
            fire(event);
            start = 0;
        }
        heldBy = -1;
        if (readCompleteOwed) {
            readCompleteOwed = false;
            ctx.fireChannelReadComplete();
        }
        if (pauses.paused(ReadPauses.FILTER)) {
            pauses.resume(ReadPauses.FILTER);
        }
    }

    /** Shows {@code event} to the filters from {@code from} on; the index of the one that held it, else -1. */
    private int runFilters(Object event, int from) {
        if (event instanceof UserEvent) {
            return -1;
        }
        for (int i = from; i < filters.length; i++) {
            NetworkFilterStatus status = event == CONNECT ? filters[i].onConnect(this)
                    : filters[i].onRead(this, (ByteBuf) event);
            if (!ctx.channel().isActive()) {
                closed = true;
                releaseWaiting();
                return -1;
            }
            if (status == NetworkFilterStatus.STOP) {
                return i;
            }
        }
        return -1;
    }

    private void fire(Object event) {
        if (event == CONNECT) {
            ctx.fireChannelActive();
        } else if (event instanceof UserEvent user) {
            ctx.fireUserEventTriggered(user.event());
        } else {
            ctx.fireChannelRead(event);
        }
    }

    private void releaseWaiting() {
        Object event;
        while ((event = waiting.poll()) != null) {
            if (!(event instanceof UserEvent)) {
                ReferenceCountUtil.release(event);
            }
        }
    }

    @Override
    public SocketAddress remoteAddress() {
        return ClientAddresses.remote(ctx.channel());
    }

    @Override
    public String listener() {
        return listener;
    }

    @Override
    public void close() {
        ctx.channel().close();
    }

    @Override
    public void resume() {
        if (ctx.executor().inEventLoop()) {
            resumeOnLoop();
        } else {
            ctx.executor().execute(this::resumeOnLoop);
        }
    }

    private void resumeOnLoop() {
        if (closed || heldBy < 0) {
            return;
        }
        int from = heldBy + 1;
        heldBy = -1;
        drain(from);
    }

    /** A user event (the end of the client's input) that waits behind held bytes. */
    private record UserEvent(Object event) {
    }
}
