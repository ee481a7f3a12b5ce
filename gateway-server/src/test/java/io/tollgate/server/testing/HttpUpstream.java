package io.tollgate.server.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntSupplier;
import java.util.function.LongConsumer;

/**
 * A real HTTP/1.1 upstream for tests, on the JDK's HTTP server. By default every path answers
 * with an echo of what arrived: method, target, headers and body size, one per line; tests add
 * their own handlers per path. It also remembers which client ports it saw, to tell whether the
 * gateway reused its connections.
 */
public final class HttpUpstream implements AutoCloseable {

    static {
        // Without it the JDK server's separate header and body writes meet delayed ACKs: ~40 ms a response.
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    private static final int BLOCK = 64 * 1024;

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();
    private final Set<String> servedPaths = ConcurrentHashMap.newKeySet();
    private final String name;

    public HttpUpstream(String name) throws IOException {
        this(name, 0);
    }

    /** An upstream on a given port, e.g. to bring a stopped one back on the same address. */
    public HttpUpstream(String name, int port) throws IOException {
        this(name, "127.0.0.1", port);
    }

    /** An upstream on another loopback address, e.g. 127.0.0.2 (Linux routes all of 127/8 to lo). */
    public HttpUpstream(String name, String address, int port) throws IOException {
        this.name = name;
        this.server = HttpServer.create(new InetSocketAddress(address, port), 0);
        server.setExecutor(executor);
        server.createContext("/", this::echo);
        servedPaths.add("/");
        server.start();
    }

    public HttpUpstream() throws IOException {
        this("upstream");
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Serves {@code path} (and below) with {@code handler}, in place of what served that path before. */
    public HttpUpstream handle(String path, HttpHandler handler) {
        if (!servedPaths.add(path)) {
            // the JDK's server keeps both contexts of one path and gives requests to the first
            server.removeContext(path);
        }
        server.createContext(path, exchange -> {
            clientPorts.add(exchange.getRemoteAddress().getPort());
            handler.handle(exchange);
        });
        return this;
    }

    /**
     * Serves {@code path} (and below) with an empty response whose status {@code status} gives
     * anew for each request, e.g. a health endpoint a test turns on and off.
     */
    public HttpUpstream answer(String path, IntSupplier status) {
        return handle(path, exchange -> {
            drain(exchange.getRequestBody());
            exchange.getResponseHeaders().set("X-Upstream", name);
            exchange.sendResponseHeaders(status.getAsInt(), -1);
            exchange.close();
        });
    }

    /** The distinct client ports that sent requests: one per upstream connection the gateway opened. */
    public Set<Integer> clientPorts() {
        return Set.copyOf(clientPorts);
    }

    private void echo(HttpExchange exchange) throws IOException {
        clientPorts.add(exchange.getRemoteAddress().getPort());
        long bodyBytes = drain(exchange.getRequestBody());
        StringBuilder text = new StringBuilder();
        text.append("upstream: ").append(name).append('\n');
        text.append("method: ").append(exchange.getRequestMethod()).append('\n');
        text.append("target: ").append(exchange.getRequestURI()).append('\n');
        text.append("body-bytes: ").append(bodyBytes).append('\n');
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.putAll(exchange.getRequestHeaders());
        headers.forEach((k, v) -> text.append("h-").append(k.toLowerCase()).append(": ").append(String.join(",", v)).append('\n'));
        byte[] body = text.toString().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain");
        exchange.getResponseHeaders().set("X-Upstream", name);
        respond(exchange, 200, body);
    }

    /** Answers {@code exchange} with {@code status} and the whole {@code body}, then ends the exchange. */
    public static void respond(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /**
     * Answers {@code exchange} with 200 and a body of {@code bodyBytes} zeros written in 64 KiB
     * blocks, telling {@code written} the size of each block once written; throws
     * when the gateway stops taking the body.
     */
    public static void respondInBlocks(HttpExchange exchange, long bodyBytes, LongConsumer written) throws IOException {
        exchange.sendResponseHeaders(200, bodyBytes);
        byte[] block = new byte[BLOCK];
        try (OutputStream out = exchange.getResponseBody()) {
            for (long sent = 0; sent < bodyBytes; sent += block.length) {
                out.write(block);
                written.accept(block.length);
            }
        }
    }

    /** Reads and counts a whole body. */
    public static long drain(InputStream in) throws IOException {
        byte[] buffer = new byte[65536];
        long total = 0;
        int n;
        while ((n = in.read(buffer)) > 0) {
            total += n;
        }
        return total;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
