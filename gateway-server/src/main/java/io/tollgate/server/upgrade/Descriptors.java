package io.tollgate.server.upgrade;

import io.netty.channel.Channel;
import io.netty.channel.unix.Socket;
import io.netty.channel.unix.UnixChannel;
import java.io.IOException;

/**
 * Sends one descriptor over the hot restart's Unix domain socket (SCM_RIGHTS, one descriptor per
 * message, as Netty's receiving side requires). The descriptor is duplicated into the peer: the
 * sender's own stays open until it closes it.
 */
final class Descriptors {

    private Descriptors() {
    }

    /**
     * Sends {@code fd} on {@code control} at once, from any thread: callers MUST know that nothing
     * else is being written on {@code control} (the conversation is strictly question and answer).
     *
     * @throws IOException when the socket refuses it
     */
    static void send(Channel control, int fd) throws IOException {
        int sent = ((Socket) ((UnixChannel) control).fd()).sendFd(fd);
        if (sent <= 0) {
            throw new IOException("sending descriptor " + fd + " over the hot restart socket: " + sent);
        }
    }
}
