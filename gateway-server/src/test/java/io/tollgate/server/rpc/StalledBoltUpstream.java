package io.tollgate.server.rpc;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Bolt upstream that accepts one connection and reads nothing from it until {@link #resume()},
 * with a small receive buffer, so that the gateway's connection to it fills up; then it reads and
 * counts whole v1 request frames, never answering.
 */
final class StalledBoltUpstream implements AutoCloseable {

    private final ServerSocket server;
    private final ExecutorService executor = Executors.newSingleThreadExecutor();
    private final CountDownLatch resumed = new CountDownLatch(1);
    private final AtomicInteger frames = new AtomicInteger();

    StalledBoltUpstream() throws IOException {
        this.server = new ServerSocket();
        server.setReceiveBufferSize(16 * 1024);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        executor.execute(this::serve);
    }

    int port() {
        return server.getLocalPort();
    }

    /** Starts reading. */
    void resume() {
        resumed.countDown();
    }

    /** Whole request frames read so far. */
    int frames() {
        return frames.get();
    }

    private void serve() {
        try (Socket socket = server.accept(); DataInputStream in = new DataInputStream(socket.getInputStream())) {
            resumed.await();
            while (true) {
                BoltFrames.readRequestContent(in);
                frames.incrementAndGet();
            }
        } catch (IOException | InterruptedException ended) {
            // the test is over
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        executor.shutdownNow();
    }
}
