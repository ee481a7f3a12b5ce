package io.tollgate.server.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An upstream that speaks raw bytes: each accepted connection is handed to a script, so a test
 * can misbehave exactly as it wants (close mid-response, answer garbage, never answer).
 */
public final class RawUpstream implements AutoCloseable {

    /** What to do with one accepted connection. */
    public interface Script {
        void run(Socket socket) throws Exception;
    }

    private final ServerSocket server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final AtomicInteger accepted = new AtomicInteger();

    public RawUpstream(Script script) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        executor.execute(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    accepted.incrementAndGet();
                    executor.execute(() -> {
                        try (socket) {
                            script.run(socket);
                        } catch (Exception ignored) {
                            // the script's connection ended; nothing to report
                        }
                    });
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Connections accepted so far. */
    public int accepted() {
        return accepted.get();
    }

    @Override
    public void close() throws IOException {
        server.close();
        executor.shutdownNow();
    }
}
