package io.tollgate.server.http2;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The host side of one upstream HTTP/2 connection, spoken frame by frame over a plain socket so
 * that a test can misbehave as a real host may (GOAWAY mid-flight, streams it opens itself,
 * silence). It acknowledges the gateway's SETTINGS by itself; responses are hand-made HPACK
 * blocks (the static {@code :status 200} plus literal headers, no Huffman).
 */
final class H2Peer {

    static final int SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
    static final int SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
    static final int REFUSED_STREAM = 0x7;

    private final DataInputStream in;
    private final OutputStream out;
    private int initialWindow = 65_535;

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
            RawH2.Frame frame = RawH2.readFrame(in);
            if (frame == null || frame.type() != RawH2.SETTINGS) {
                return frame;
            }
            if ((frame.flags() & 0x1) == 0) {
                learn(frame.payload());
                send(RawH2.SETTINGS, 0x1, 0, new byte[0]);
            }
        }
    }

    /** The stream window the gateway announced (SETTINGS_INITIAL_WINDOW_SIZE). */
    int initialWindow() {
        return initialWindow;
    }

    /** Answers {@code stream} with status 200, no body, and the header {@code x-conn: conn}. */
    void answer(int stream, String conn) throws IOException {
        respond(stream, true, "x-conn", conn);
    }

    /**
     * Sends a response head: status 200, then each name and value (short lowercase ASCII) as a
     * literal header field without indexing.
     */
    void respond(int stream, boolean endStream, String... namesAndValues) throws IOException {
        ByteBuffer block = ByteBuffer.allocate(1024).put((byte) 0x88);
        for (int i = 0; i < namesAndValues.length; i += 2) {
            block.put((byte) 0x00);
            putString(block, namesAndValues[i]);
            putString(block, namesAndValues[i + 1]);
        }
        int flags = RawH2.END_HEADERS | (endStream ? RawH2.END_STREAM : 0);
        send(RawH2.HEADERS, flags, stream, Arrays.copyOf(block.array(), block.position()));
    }

    /** A GOAWAY naming {@code lastStreamId} as the last stream the host processes. */
    void goAway(int lastStreamId) throws IOException {
        send(RawH2.GOAWAY, 0, 0, ByteBuffer.allocate(8).putInt(lastStreamId).putInt(0).array());
    }

    void send(int type, int flags, int stream, byte[] payload) throws IOException {
        out.write(RawH2.frameBytes(type, flags, stream, payload));
        out.flush();
    }

    private static void putString(ByteBuffer block, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        block.put((byte) bytes.length).put(bytes);
    }

    private void learn(byte[] settings) {
        ByteBuffer entries = ByteBuffer.wrap(settings);
        while (entries.remaining() >= 6) {
            int id = entries.getShort() & 0xffff;
            int value = entries.getInt();
            if (id == SETTINGS_INITIAL_WINDOW_SIZE) {
                initialWindow = value;
            }
        }
    }
}
