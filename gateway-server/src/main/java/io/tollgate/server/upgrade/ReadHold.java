package io.tollgate.server.upgrade;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;

/**
 * Keeps a connection from reading while a hot restart moves it: with auto-read off, every read
 * the connection's own handlers ask for (a proxy resuming after backpressure) is held here, so that
 * what the client sends next stays in the socket for the process that takes the connection over.
 * {@link #release} gives the connection its reading back when it does not move after all. Installed
 * first in the pipeline, on the connection's event loop.
 */
final class ReadHold extends ChannelOutboundHandlerAdapter {

    static final String NAME = "upgrade-hold";

    private boolean autoReadBefore;
    private boolean readAsked;

    /** Stops {@code ch} reading; on its event loop. */
    static void hold(Channel ch) {
        ReadHold hold = new ReadHold();
        hold.autoReadBefore = ch.config().isAutoRead();
        ch.pipeline().addFirst(NAME, hold);
        ch.config().setAutoRead(false);
    }

    /** Lets {@code ch} read again as its handlers wanted; on its event loop. */
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
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        readAsked = true;
    }
}
