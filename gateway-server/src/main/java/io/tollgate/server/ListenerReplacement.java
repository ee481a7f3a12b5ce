package io.tollgate.server;

import io.netty.channel.EventLoopGroup;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.server.listener.DownstreamProtocols;
import io.tollgate.server.listener.Listener;
import io.tollgate.server.transport.Transport;

/**
 * A listener a reload or the control plane changed, and its successor: at the same address the
 * successor takes over the listening socket, so that no connection attempt is refused in between;
 * at a new address it is bound beside the old one. The old listener then drains. Until the
 * reload is applied whole, {@link #undo} puts things back as they were.
 */
record ListenerReplacement(Listener previous, Listener next, boolean sameSocket) {

    /** Sets up the successor of {@code previous} for {@code config}; {@code previous} stops accepting when it shares the socket. */
    static ListenerReplacement of(Listener previous, ListenerConfig config, EventLoopGroup group, Transport transport,
            DownstreamProtocols protocols) throws InterruptedException {
        boolean sameAddress = previous.config().address().equals(config.address()) && previous.config().port() == config.port();
        Listener next = sameAddress ? Listener.succeed(config, previous, group, transport, protocols)
                : Listener.bind(config, group, transport, protocols);
        return new ListenerReplacement(previous, next, sameAddress);
    }

    /** The reload failed: the successor goes, and the previous listener accepts on its socket again. */
    void undo() {
        if (sameSocket) {
            next.handBackTo(previous);
        } else {
            next.close();
        }
    }
}
