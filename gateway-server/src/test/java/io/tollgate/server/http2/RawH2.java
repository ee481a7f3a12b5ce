package io.tollgate.server.http2;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

/**
 * An HTTP/2 client writing frames byte by byte over a plain socket, so that tests can send what a
 * well-behaved client never would. HPACK comes from Netty; everything else is hand-made.
 */
final class RawH2 implements AutoCloseable {

    static final int DATA = 0;
    static final int HEADERS = 1;
    static final int RST_STREAM = 3;
    static final int SETTINGS = 4;
    static final int PING = 6;
    static final int GOAWAY = 7;
    static final int WINDOW_UPDATE = 8;
    static final int CONTINUATION = 9;
    static final int END_STREAM = 0x1;
    static final int END_HEADERS = 0x4;

    /** One frame as read; {@code errorCode} is meaningful for RST_STREAM and GOAWAY. */
    record Frame(int type, int flags, int stream, byte[] payload) {
        int errorCode() {
            ByteBuffer buffer = ByteBuffer.wrap(payload);
            return type == GOAWAY ? buffer.getInt(4) : buffer.getInt(0);
        }

        boolean endsStream() {
            return (type == DATA || type == HEADERS) && (flags & END_STREAM) != 0;
        }
    }

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private final DefaultHttp2HeadersEncoder encoder =
            new DefaultHttp2HeadersEncoder(Http2HeadersEncoder.NEVER_SENSITIVE, true);
    private final DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder(false);

    RawH2(int port) throws IOException {
        this(port, 0);
    }

    /** @param receiveBufferBytes the socket's receive buffer, set before connecting; 0 for the default */
    RawH2(int port, int receiveBufferBytes) throws IOException {
        socket = new Socket();
        if (receiveBufferBytes > 0) {
            socket.setReceiveBufferSize(receiveBufferBytes);
        }
        socket.connect(new InetSocketAddress("127.0.0.1", port));
        socket.setSoTimeout(5000);
        out = socket.getOutputStream();
        in = new DataInputStream(socket.getInputStream());
    }

    /** Sends the connection preface and an empty SETTINGS frame. */
    RawH2 preface() throws IOException {
        out.write(ByteBufUtil.getBytes(Http2CodecUtil.connectionPrefaceBuf()));
        return frame(SETTINGS, 0, 0, new byte[0]);
    }

    RawH2 raw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    RawH2 frame(int type, int flags, int stream, byte[] payload) throws IOException {
        return raw(frameBytes(type, flags, stream, payload));
    }

    /** The bytes of one frame: the 9-byte header, then {@code payload}. */
    static byte[] frameBytes(int type, int flags, int stream, byte[] payload) {
        ByteBuffer frame = ByteBuffer.allocate(9 + payload.length);
        frame.put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length);
        frame.put((byte) type).put((byte) flags).putInt(stream).put(payload);
        return frame.array();
    }

    /** The same frame {@code count} times in a row, to send in one write. */
    static byte[] repeated(byte[] frame, int count) {
        byte[] all = new byte[frame.length * count];
        for (int i = 0; i < count; i++) {
            System.arraycopy(frame, 0, all, i * frame.length, frame.length);
        }
        return all;
    }

    /** Opens the connection's and {@code stream}'s flow-control windows as far as they go. */
    RawH2 openWindows(int stream) throws IOException {
        byte[] increment = ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE - Http2CodecUtil.DEFAULT_WINDOW_SIZE).array();
        frame(WINDOW_UPDATE, 0, 0, increment);
        return frame(WINDOW_UPDATE, 0, stream, increment);
    }

    /** A GET of {@code path}, ending the stream. */
    RawH2 get(int stream, String path) throws IOException, Http2Exception {
        return frame(HEADERS, END_HEADERS | END_STREAM, stream, headerBlock(request("GET", path)));
    }

    static Http2Headers request(String method, String path) {
        return new DefaultHttp2Headers().method(method).path(path).scheme("http").authority("test");
    }

    byte[] headerBlock(Http2Headers headers) throws Http2Exception {
        ByteBuf block = Unpooled.buffer();
        try {
            encoder.encodeHeaders(1, headers, block);
            return ByteBufUtil.getBytes(block);
        } finally {
            block.release();
        }
    }

    /** Decodes a HEADERS frame's block (no padding or priority expected). */
    Http2Headers headers(Frame frame) throws Http2Exception {
        ByteBuf block = Unpooled.wrappedBuffer(frame.payload());
        try {
            return decoder.decodeHeaders(frame.stream(), block);
        } finally {
            block.release();
        }
    }

    /**
     * Sends {@code request}, an HTTP/1.1 request asking for h2c, and returns the head of the
     * answer (a 101 when the connection upgraded; HTTP/2 frames follow).
     */
    String upgrade(String request) throws IOException {
        raw(request.getBytes(StandardCharsets.US_ASCII));
        StringBuilder head = new StringBuilder();
        while (head.length() < 4 || head.lastIndexOf("\r\n\r\n") != head.length() - 4) {
            head.append((char) in.readUnsignedByte());
        }
        return head.toString();
    }

    /** The next frame, or null once the server closed the connection. */
    Frame read() throws IOException {
        return readFrame(in);
    }

    /** The next frame from {@code in}, or null once the peer closed the connection. */
    static Frame readFrame(DataInputStream in) throws IOException {
        try {
            int length = in.readUnsignedByte() << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
            int type = in.readUnsignedByte();
            int flags = in.readUnsignedByte();
            int stream = in.readInt() & 0x7fffffff;
            byte[] payload = new byte[length];
            in.readFully(payload);
            return new Frame(type, flags, stream, payload);
        } catch (EOFException | SocketException closed) {
            return null;
        }
    }

    /** Reads until a frame matches and returns it; null when the connection closed first. */
    Frame await(Predicate<Frame> wanted) throws IOException {
        Frame frame;
        while ((frame = read()) != null) {
            if (wanted.test(frame)) {
                return frame;
            }
        }
        return null;
    }

    /** Whether the server closes the connection (within the read timeout), whatever it sends first. */
    boolean closedByServer() throws IOException {
        try {
            return await(f -> false) == null;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
