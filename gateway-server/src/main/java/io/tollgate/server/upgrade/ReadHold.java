package io.tollgate.server.upgrade;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.tollgate.server.drain.DrainableConnection;
import java.util.Map;

/**
 * Keeps a connection from reading while a hot restart moves it: with auto-read off, every read
 * the connection's own handlers ask for (a proxy resuming after backpressure) is held here, so that
 * what the client sends next stays in the socket for the process that takes the connection over.
 * Installed first in the pipeline, it is also the first {@link DrainableConnection} the drain finds
 * there: the drain's request waits here, since a connection that moves must not be told to go
 * away, and reaches the protocol's handler only when {@link #release} gives the connection back
 * (it does not move after all). Everything runs on the connection's event loop.
 */
final class ReadHold extends ChannelOutboundHandlerAdapter implements DrainableConnection {

    static final String NAME = "upgrade-hold";

    private boolean autoReadBefore;
    private boolean readAsked;
    private boolean drainAsked;

    /** Stops {@code ch} reading. */
    static void hold(Channel ch) {
        ReadHold hold = new ReadHold();
        hold.autoReadBefore = ch.config().isAutoRead();
        ch.pipeline().addFirst(NAME, hold);
        ch.config().setAutoRead(false);
    }

    /** Lets {@code ch} read again as its handlers want, and drain when it was asked to meanwhile. */
    static void release(Channel ch) {
        if (!(ch.pipeline().get(NAME) instanceof ReadHold hold)) {
            return;
        }
        ch.pipeline().remove(hold);
        boolean wanted = hold.readAsked ? ch.config().isAutoRead() : hold.autoReadBefore;
        ch.config().setAutoRead(wanted);
        if (wanted) {
            ch.read();
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
        readAsked = true;
    }

    @Override
    public void drain() {
        drainAsked = true;
    }
}
