package io.tollgate.server.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A byte-level HTTP/1.1 client for tests that real clients cannot express: pipelining, malformed
 * requests, 100-continue by hand, HTTP/1.0. Reads responses with Content-Length, chunked or
 * close-delimited bodies.
 */
public final class RawHttp implements AutoCloseable {

    /** A response as read from the wire; header names are lower case. */
    public record Response(int status, Map<String, String> headers, String body, Map<String, String> trailers) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    public RawHttp(int port) throws IOException {
        this(new Socket("127.0.0.1", port));
    }

    /**
     * A client whose connection comes from {@code localAddress}, another loopback address such as
     * {@code 127.0.0.2} (Linux answers the whole 127/8 on the loopback interface), so that a test
     * can play several clients told apart by address.
     */
    public RawHttp(String localAddress, int port) throws IOException {
        this(new Socket(InetAddress.getByName("127.0.0.1"), port, InetAddress.getByName(localAddress), 0));
    }

    private RawHttp(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(10_000);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    public RawHttp send(String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return this;
    }

    public RawHttp send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** Reads one response; {@code head} says whether it answers a HEAD request (no body). */
    public Response read(boolean head) throws IOException {
        String statusLine = line();
        if (statusLine == null) {
            throw new IOException("connection closed before a response");
        }
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        String line;
        while (!(line = line()).isEmpty()) {
            int colon = line.indexOf(':');
            headers.merge(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim(),
                    (a, b) -> a + "," + b);
        }
        if (head || status == 204 || status == 304 || (status >= 100 && status < 200)) {
            return new Response(status, headers, "", Map.of());
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        Map<String, String> trailers = new LinkedHashMap<>();
        if (headers.containsKey("content-length")) {
            int length = Integer.parseInt(headers.get("content-length"));
            body.write(in.readNBytes(length));
        } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            int size;
            while ((size = Integer.parseInt(line().split(";")[0].trim(), 16)) > 0) {
                body.write(in.readNBytes(size));
                line();
            }
            String trailer;
            while (!(trailer = line()).isEmpty()) {
                int colon = trailer.indexOf(':');
                trailers.put(trailer.substring(0, colon).trim().toLowerCase(Locale.ROOT), trailer.substring(colon + 1).trim());
            }
        } else {
            body.write(in.readAllBytes());
        }
        return new Response(status, headers, body.toString(StandardCharsets.UTF_8), trailers);
    }

    public Response read() throws IOException {
        return read(false);
    }

    /** Whether the server closed the connection: the next read sees end of stream. */
    public boolean closedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (java.net.SocketException reset) {
            return true;
        }
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                int len = line.length();
                return len > 0 && line.charAt(len - 1) == '\r' ? line.substring(0, len - 1) : line.toString();
            }
            line.append((char) c);
        }
        return line.length() == 0 ? null : line.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
