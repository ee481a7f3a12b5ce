package io.tollgate.server.http2;

import io.tollgate.server.testing.RawUpstream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * An HTTP/1.1 upstream that answers each request with the request exactly as it came on the wire
 * (head, body framing, chunk sizes and trailer section), so that a test can see what the gateway
 * sent: {@code Transfer-Encoding}, {@code TE}, {@code Trailer} and the trailer fields after the
 * last chunk. Keeps its connections alive; requests are framed by {@code Content-Length} or
 * chunked, as RFC 9112 section 6 says.
 */
final class Http1WireEcho implements AutoCloseable {

    private final RawUpstream server = new RawUpstream(Http1WireEcho::serve);

    Http1WireEcho() throws IOException {
    }

    int port() {
        return server.port();
    }

    private static void serve(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        OutputStream out = socket.getOutputStream();
        while (true) {
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            String head = readHead(in, wire);
            if (head == null) {
                return;
            }
            String lower = head.toLowerCase(Locale.ROOT);
            if (lower.contains("\r\ntransfer-encoding: chunked\r\n")) {
                readChunked(in, wire);
            } else {
                int at = lower.indexOf("\r\ncontent-length:");
                if (at >= 0) {
                    int end = lower.indexOf("\r\n", at + 2);
                    int length = Integer.parseInt(lower.substring(at + 17, end).trim());
                    wire.write(in.readNBytes(length));
                }
            }
            byte[] body = wire.toByteArray();
            out.write(("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
        }
    }

    /** Reads a request head into {@code wire}; null when the connection ended first. */
    private static String readHead(InputStream in, ByteArrayOutputStream wire) throws IOException {
        StringBuilder head = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            wire.write(c);
            head.append((char) c);
            if (head.length() >= 4 && head.lastIndexOf("\r\n\r\n") == head.length() - 4) {
                return head.toString();
            }
        }
        return null;
    }

    /** Reads a chunked body into {@code wire}: chunks, the last chunk, the trailer section and its blank line. */
    private static void readChunked(InputStream in, ByteArrayOutputStream wire) throws IOException {
        int size;
        do {
            String line = readLine(in, wire);
            size = Integer.parseInt(line.split(";")[0].trim(), 16);
            if (size > 0) {
                wire.write(in.readNBytes(size));
                readLine(in, wire);
            }
        } while (size > 0);
        while (!readLine(in, wire).isEmpty()) {
            // a trailer field, kept in the echo
        }
    }

    private static String readLine(InputStream in, ByteArrayOutputStream wire) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            wire.write(c);
            if (c == '\n') {
                return line.toString();
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        throw new IOException("the connection ended inside a chunked body");
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
