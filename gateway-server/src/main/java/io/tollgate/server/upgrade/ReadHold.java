package io.tollgate.server.upgrade;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.tollgate.server.drain.DrainableConnection;
import java.util.Map;

/**
 * Marks a connection a hot restart means to move, installed first in its pipeline. It is the first
 * {@link DrainableConnection} the drain finds there: the drain's request waits here, since a
 * connection that moves must not be told to go away, and reaches the protocol's handler only when
 * {@link #release} gives the connection back (it does not move after all). Once {@link #hold}
 * stops the connection reading, every read its own handlers ask for (a proxy resuming after
 * backpressure) is held here too, so that what the client sends next stays in the socket for the
 * process that takes the connection over. Everything runs on the connection's event loop.
 */
final class ReadHold extends ChannelOutboundHandlerAdapter implements DrainableConnection {

    private static final String NAME = "upgrade-hold";

    private boolean holding;
    private boolean autoReadBefore;
    private boolean readAsked;
    private boolean drainAsked;

    /** Marks {@code ch}: a drain waits here; it still reads. */
    static void install(Channel ch) {
        ch.pipeline().addFirst(NAME, new ReadHold());
    }

    /** Stops {@code ch} reading; it MUST be {@link #install installed}. */
    static void hold(Channel ch) {
        ReadHold hold = (ReadHold) ch.pipeline().get(NAME);
        if (hold.holding) {
            return;
        }
        hold.holding = true;
        hold.autoReadBefore = ch.config().isAutoRead();
        ch.config().setAutoRead(false);
    }

    /** Lets {@code ch} read again as its handlers want, and drain when it was asked to meanwhile. */
    static void release(Channel ch) {
        if (!(ch.pipeline().get(NAME) instanceof ReadHold hold)) {
            return;
        }
        ch.pipeline().remove(hold);
        if (hold.holding) {
            boolean wanted = hold.readAsked ? ch.config().isAutoRead() : hold.autoReadBefore;
            ch.config().setAutoRead(wanted);
            if (wanted) {
                ch.read();
            }
        }
        if (hold.drainAsked) {
            for (Map.Entry<String, ChannelHandler> entry : ch.pipeline()) {
                if (entry.getValue() instanceof DrainableConnection connection) {
                    connection.drain();
                    return;
                }
            }
        }
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        if (holding) {
            readAsked = true;
            return;
        }
        ctx.read();
    }

    @Override
    public void drain() {
        drainAsked = true;
    }
}
