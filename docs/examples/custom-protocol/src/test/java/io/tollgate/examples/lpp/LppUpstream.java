package io.tollgate.examples.lpp;

import io.tollgate.protocols.rpc.RpcFrame;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An LPP server on plain sockets, one thread per connection, that answers requests as a test
 * wants: at once, in reverse order once it holds a batch, or not at all (it closes the
 * connection). It keeps every request it read, answers heartbeats, and never answers a oneway
 * request.
 */
final class LppUpstream implements AutoCloseable {

    /** What the server does with one connection. */
    private interface Conversation {
        void serve(DataInputStream in, OutputStream out) throws IOException;
    }

    private final String tag;
    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final Queue<Socket> sockets = new ConcurrentLinkedQueue<>();
    private final Queue<LppMessage> received = new ConcurrentLinkedQueue<>();

    /**
     * @param batch how many requests a connection holds before it answers them, last first; 0 to
     *     close each connection on its first request instead
     */
    private LppUpstream(String tag, int batch) throws IOException {
        this.tag = tag;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Conversation conversation = batch == 0 ? this::closeOnFirstRequest : (in, out) -> answerInBatches(in, out, batch);
        threads.execute(() -> accept(conversation));
    }

    /** Answers each request at once with {@code tag + ":" + body}. */
    static LppUpstream echo(String tag) throws IOException {
        return new LppUpstream(tag, 1);
    }

    /** Holds requests until it has {@code batch} of them, then answers them last first. */
    static LppUpstream reordering(String tag, int batch) throws IOException {
        return new LppUpstream(tag, batch);
    }

    /** Reads one request on each connection and closes it unanswered. */
    static LppUpstream closingOnEachRequest() throws IOException {
        return new LppUpstream("closing", 0);
    }

    int port() {
        return server.getLocalPort();
    }

    /** The requests read so far, in the order they came. */
    List<LppMessage> received() {
        return List.copyOf(received);
    }

    private void accept(Conversation conversation) {
        while (!server.isClosed()) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException closed) {
                return;
            }
            sockets.add(socket);
            threads.execute(() -> {
                try (socket) {
                    conversation.serve(new DataInputStream(new BufferedInputStream(socket.getInputStream())),
                            socket.getOutputStream());
                } catch (IOException ended) {
                    // the gateway or the test closed the connection
                }
            });
        }
    }

    private void answerInBatches(DataInputStream in, OutputStream out, int batch) throws IOException {
        List<LppMessage> held = new ArrayList<>();
        LppMessage message;
        while ((message = LppMessage.read(in)) != null) {
            if (message.kind() == LppProtocol.KIND_HEARTBEAT) {
                out.write(LppMessage.encode(RpcFrame.Kind.HEARTBEAT_ACK, LppStatus.OK, message.requestId(), "", "", ""));
                continue;
            }
            received.add(message);
            if (message.kind() != LppProtocol.KIND_REQUEST) {
                continue;
            }
            held.add(message);
            if (held.size() == batch) {
                Collections.reverse(held);
                for (LppMessage request : held) {
                    out.write(LppMessage.encode(RpcFrame.Kind.RESPONSE, LppStatus.OK, request.requestId(), "", "",
                            tag + ":" + request.body()));
                }
                out.flush();
                held.clear();
            }
        }
    }

    private void closeOnFirstRequest(DataInputStream in, OutputStream out) throws IOException {
        LppMessage message = LppMessage.read(in);
        if (message != null) {
            received.add(message);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
        threads.shutdownNow();
    }
}
