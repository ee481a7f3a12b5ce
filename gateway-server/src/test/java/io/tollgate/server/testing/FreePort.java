package io.tollgate.server.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** A loopback port nothing listens on (it was free a moment ago): a server to start there, or an upstream that is down. */
public final class FreePort {

    private FreePort() {
    }

    public static int pick() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
