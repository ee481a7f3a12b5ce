package io.tollgate.server.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * What an L4 balancer with {@code send-proxy} does, for clients that cannot send a PROXY protocol
 * header themselves (JDK HttpClient, SOFARPC): each connection accepted on {@link #port()} is
 * opened to the gateway with a given header, then its bytes are copied both ways as they come.
 */
public final class ProxyHeaderRelay implements AutoCloseable {

    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    public ProxyHeaderRelay(int gatewayPort, byte[] header) throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        threads.execute(() -> {
            while (!server.isClosed()) {
                try {
                    Socket client = server.accept();
                    Socket gateway = new Socket("127.0.0.1", gatewayPort);
                    client.setTcpNoDelay(true);
                    gateway.setTcpNoDelay(true);
                    sockets.add(client);
                    sockets.add(gateway);
                    gateway.getOutputStream().write(header);
                    threads.execute(() -> copy(client, gateway));
                    threads.execute(() -> copy(gateway, client));
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    public int port() {
        return server.getLocalPort();
    }

    private static void copy(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
            }
            to.shutdownOutput();
        } catch (IOException ended) {
            try {
                to.close();
            } catch (IOException ignored) {
                // already closed
            }
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
