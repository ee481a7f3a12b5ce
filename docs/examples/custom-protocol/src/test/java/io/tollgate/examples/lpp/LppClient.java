package io.tollgate.examples.lpp;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;

/** A plain-socket LPP client: it writes whatever bytes a test gives and reads frames one by one. */
final class LppClient implements AutoCloseable {

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    /** Connects to {@code port} on the loopback address; every read waits 5 s at most. */
    LppClient(int port) throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(5000);
        in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        out = socket.getOutputStream();
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** The next frame; fails when the connection ends first. */
    LppMessage next() throws IOException {
        LppMessage message = LppMessage.read(in);
        if (message == null) {
            throw new AssertionError("the gateway closed the connection");
        }
        return message;
    }

    /** Sends a request and reads the next frame. */
    LppMessage call(long requestId, String service, String method, String body) throws IOException {
        send(LppMessage.request(requestId, service, method, body));
        return next();
    }

    /** Whether the connection ends before another frame comes. */
    boolean closedByPeer() throws IOException {
        return LppMessage.read(in) == null;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
