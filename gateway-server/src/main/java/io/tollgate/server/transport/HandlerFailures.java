package io.tollgate.server.transport;

import io.netty.channel.Channel;
import io.netty.handler.codec.DecoderException;
import io.tollgate.core.metrics.ConnectionErrorMeters;
import java.io.IOException;
import org.slf4j.Logger;

/**
 * What a connection handler does with an exception that reaches it, before closing: an I/O error
 * (also one a decoder wraps, such as a TLS record the peer broke) is the peer resetting or closing
 * the socket or sending garbage, routine, counted as {@code peer_reset} and logged at debug; anything else is a failure of our own handlers, counted as {@code unexpected} and
 * logged at WARN with its stack trace as often as {@link ConnectionErrorMeters#mayWarn} allows (the
 * others at debug), so that a bug cannot hide among resets nor flood the log.
 */
public final class HandlerFailures {

    private HandlerFailures() {
    }

    /**
     * Counts and logs {@code cause}, which ended {@code channel}; the caller closes the channel.
     *
     * @param log the handler's logger
     * @param downstream whether {@code channel} is a client's connection (else a host's)
     */
    public static void caught(Logger log, Channel channel, Throwable cause, ConnectionErrorMeters meters,
            boolean downstream) {
        boolean peerReset = cause instanceof IOException
                || cause instanceof DecoderException && cause.getCause() instanceof IOException;
        meters.count(downstream, peerReset);
        String side = downstream ? "downstream" : "upstream";
        if (peerReset) {
            log.debug("{} connection {} reset by the peer: {}", side, channel, cause.toString());
        } else if (meters.mayWarn()) {
            log.warn("{} connection {} failed unexpectedly, closing it", side, channel, cause);
        } else {
            log.debug("{} connection {} failed unexpectedly, closing it", side, channel, cause);
        }
    }
}
