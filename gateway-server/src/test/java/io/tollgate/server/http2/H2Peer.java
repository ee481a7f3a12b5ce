package io.tollgate.server.http2;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The host side of one upstream HTTP/2 connection, spoken frame by frame over a plain socket so
 * that a test can misbehave as a real host may (GOAWAY mid-flight, streams it opens itself,
 * silence). It acknowledges the gateway's SETTINGS by itself; responses are hand-made HPACK
 * blocks (the static {@code :status 200} plus literal headers, no Huffman).
 */
final class H2Peer {

    static final int SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
    static final int REFUSED_STREAM = 0x7;

    private final DataInputStream in;
    private final OutputStream out;

    /** Reads the gateway's connection preface and sends {@code settings} (id, value pairs) as the host's SETTINGS. */
    H2Peer(Socket socket, int... settings) throws IOException {
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
        in.readFully(new byte[24]);
        ByteBuffer payload = ByteBuffer.allocate(settings.length / 2 * 6);
        for (int i = 0; i < settings.length; i += 2) {
            payload.putShort((short) settings[i]).putInt(settings[i + 1]);
        }
        send(RawH2.SETTINGS, 0, 0, payload.array());
    }

    /** The next frame other than a SETTINGS from the gateway, or null once the gateway closed the connection. */
    RawH2.Frame read() throws IOException {
        while (true) {
            RawH2.Frame frame;
            try {
                int length = in.readUnsignedByte() << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
                int type = in.readUnsignedByte();
                int flags = in.readUnsignedByte();
                int stream = in.readInt() & 0x7fffffff;
                byte[] payload = new byte[length];
                in.readFully(payload);
                frame = new RawH2.Frame(type, flags, stream, payload);
            } catch (EOFException | SocketException closed) {
                return null;
            }
            if (frame.type() != RawH2.SETTINGS) {
                return frame;
            }
            if ((frame.flags() & 0x1) == 0) {
                send(RawH2.SETTINGS, 0x1, 0, new byte[0]);
            }
        }
    }

    /** Answers {@code stream} with status 200, no body, and the header {@code x-conn: conn}. */
    void answer(int stream, String conn) throws IOException {
        byte[] name = "x-conn".getBytes(StandardCharsets.US_ASCII);
        byte[] value = conn.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer block = ByteBuffer.allocate(3 + name.length + 1 + value.length);
        block.put((byte) 0x88).put((byte) 0x00).put((byte) name.length).put(name).put((byte) value.length).put(value);
        send(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, stream, block.array());
    }

    /** A GOAWAY naming {@code lastStreamId} as the last stream the host processes. */
    void goAway(int lastStreamId) throws IOException {
        send(RawH2.GOAWAY, 0, 0, ByteBuffer.allocate(8).putInt(lastStreamId).putInt(0).array());
    }

    void send(int type, int flags, int stream, byte[] payload) throws IOException {
        out.write(RawH2.frameBytes(type, flags, stream, payload));
        out.flush();
    }
}
