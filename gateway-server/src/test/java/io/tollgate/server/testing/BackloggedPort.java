package io.tollgate.server.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/**
 * A listening port whose accept queue is full, so that a further connect hangs until its timeout:
 * the only way to make a TCP connect time out on loopback.
 */
public final class BackloggedPort implements AutoCloseable {

    private final ServerSocket server;
    private final List<Socket> fillers = new ArrayList<>();

    public BackloggedPort() throws IOException {
        this.server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    }

    public int port() {
        return server.getLocalPort();
    }

    /** The listening socket, to accept from once the queue is drained. */
    public ServerSocket server() {
        return server;
    }

    /** Connects until the accept queue is full: after this a further SYN is dropped. */
    public BackloggedPort fill() throws IOException {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port());
        for (int i = 0; i < 10; i++) {
            Socket socket = new Socket();
            try {
                socket.connect(address, 200);
                fillers.add(socket);
            } catch (SocketTimeoutException full) {
                socket.close();
                return this;
            }
        }
        throw new AssertionError("the accept queue did not fill after " + fillers.size() + " connections");
    }

    /** Accepts and closes the queued fillers, so that new connects go through again. */
    public void drain() throws IOException {
        for (Socket filler : fillers) {
            server.accept().close();
            filler.close();
        }
        fillers.clear();
    }

    @Override
    public void close() throws IOException {
        for (Socket filler : fillers) {
            filler.close();
        }
        server.close();
    }
}
