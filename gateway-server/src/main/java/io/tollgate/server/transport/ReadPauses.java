package io.tollgate.server.transport;

import io.netty.channel.Channel;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.AttributeKey;

/**
 * Why a channel's reading is paused, as bits, so that handlers pausing it for different reasons
 * (a network filter holding the connection, an upstream connect under way, the other side of a
 * proxy not writable) do not resume it for one another: {@code autoRead} is on only while no bit
 * is set. Used on the channel's event loop only.
 */
public final class ReadPauses {

    /** A network filter holds the connection. */
    public static final int FILTER = 1;
    /** The connection's upstream side is not connected yet. */
    public static final int CONNECTING = 1 << 1;
    /** The channel this one's bytes are written to is not writable. */
    public static final int PEER_UNWRITABLE = 1 << 2;
    /** The connection's bytes move past Netty (the TCP proxy's splice), or are about to. */
    public static final int SPLICING = 1 << 3;

    private static final AttributeKey<ReadPauses> KEY = AttributeKey.valueOf(ReadPauses.class.getName());

    private final Channel channel;
    private int reasons;

    private ReadPauses(Channel channel) {
        this.channel = channel;
    }

    /** The pauses of {@code channel}, made on first use. */
    public static ReadPauses of(Channel channel) {
        ReadPauses pauses = channel.attr(KEY).get();
        if (pauses == null) {
            pauses = new ReadPauses(channel);
            channel.attr(KEY).set(pauses);
        }
        return pauses;
    }

    /** Stops reading for {@code reason}, one of this class's bits. */
    public void pause(int reason) {
        reasons |= reason;
        channel.config().setAutoRead(false);
    }

    /**
     * Ends the pause for {@code reason}; reading resumes when no other reason holds it, unless the
     * channel's input ended: there is nothing to read, and Netty 4.2.18's epoll transport, which
     * took the descriptor out of epoll when its interest set became empty, fails the channel if
     * asked to read it again.
     */
    public void resume(int reason) {
        reasons &= ~reason;
        if (reasons == 0 && !(channel instanceof DuplexChannel duplex && duplex.isInputShutdown())) {
            channel.config().setAutoRead(true);
        }
    }

    /** Whether {@code reason} pauses reading now. */
    public boolean paused(int reason) {
        return (reasons & reason) != 0;
    }
}
