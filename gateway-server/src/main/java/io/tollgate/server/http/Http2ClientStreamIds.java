package io.tollgate.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Stream;

/**
 * Reads the headers of a client's frames before Netty's decoder does, to enforce what RFC 9113
 * section 5.1 says of HEADERS on streams the decoder no longer knows (it keeps no closed streams,
 * and answers them all with a stream error):
 * <ul>
 *   <li>a stream id lower than the highest the client opened, which it never opened, is a
 *       connection error PROTOCOL_ERROR (section 5.1.1);</li>
 *   <li>HEADERS on a stream the client opened and that closed, unless the gateway reset it, is a
 *       connection error STREAM_CLOSED (section 5.1, "closed");</li>
 *   <li>HEADERS on a half-closed (remote) stream is a stream error STREAM_CLOSED, where the
 *       decoder says PROTOCOL_ERROR: {@link #halfClosedHeaders} names such streams for the
 *       connection's error handling.</li>
 * </ul>
 * The frames of a read are scanned here before the decoder sees any of them, so a stream opened
 * by a HEADERS frame of the same read (an id above the last the decoder created) is open, not
 * closed: its trailers (HEADERS with END_STREAM after HEADERS and DATA, RFC 9113 section 8.1)
 * often arrive in the read that opened it. The ids a client skipped, the streams the gateway
 * reset and the streams opened with END_STREAM ahead of the decoder are remembered for the last
 * {@value #REMEMBERED} of each: an older one is taken for a stream that closed (or, opened ahead
 * with END_STREAM, for an open one, whose second HEADERS the decoder still refuses as a stream
 * error). Reading a frame header costs a few bytes' reads per frame and allocates nothing.
 * Confined to the connection's event loop.
 */
final class Http2ClientStreamIds {

    /** The frame type of HEADERS. */
    private static final int HEADERS = 1;
    private static final int FRAME_HEADER_BYTES = 9;
    private static final int END_STREAM = 0x1;
    static final int REMEMBERED = 8;

    private final Http2Connection connection;
    /** Bytes after the reader index that belong to frames already read here (the preface first). */
    private long scanned = Http2CodecUtil.connectionPrefaceBuf().readableBytes();
    private int firstOpened;
    private int highestOpened;
    /** Ranges of ids skipped by the client, {@code [low, high]} packed in one long each, a ring. */
    private final long[] skipped = new long[REMEMBERED];
    private int skippedNext;
    private final int[] reset = new int[REMEMBERED];
    private int resetNext;
    private final int[] halfClosed = new int[REMEMBERED];
    private int halfClosedNext;
    /** Streams opened by a HEADERS frame with END_STREAM that the decoder may not have read yet. */
    private final int[] endedAhead = new int[REMEMBERED];
    private int endedAheadNext;

    /** The connection error found, set by {@link #scan}. */
    private Http2Error error;
    private int errorStream;

    /** @param upgraded whether the connection began as HTTP/1.1, whose request became stream 1 */
    Http2ClientStreamIds(Http2Connection connection, boolean upgraded) {
        this.connection = connection;
        if (upgraded) {
            firstOpened = Http2CodecUtil.HTTP_UPGRADE_STREAM_ID;
            highestOpened = Http2CodecUtil.HTTP_UPGRADE_STREAM_ID;
        }
    }

    /**
     * Reads the headers of the frames in {@code in} not read yet.
     *
     * @return the reader-relative offset of the first frame that is a connection error (see
     *     {@link #error()}), or -1 when there is none
     */
    int scan(ByteBuf in) {
        long position = scanned;
        int readable = in.readableBytes();
        int start = in.readerIndex();
        while (readable - position >= FRAME_HEADER_BYTES) {
            int at = start + (int) position;
            int length = in.getUnsignedMedium(at);
            if (in.getUnsignedByte(at + 3) == HEADERS) {
                int flags = in.getUnsignedByte(at + 4);
                int streamId = in.getInt(at + 5) & 0x7fffffff;
                if (!headersAllowed(streamId, (flags & END_STREAM) != 0)) {
                    scanned = position;
                    return (int) position;
                }
            }
            position += FRAME_HEADER_BYTES + length;
        }
        scanned = position;
        return -1;
    }

    /** Netty's decoder consumed {@code bytes} of what {@link #scan} read. */
    void consumed(int bytes) {
        scanned -= bytes;
    }

    /** The error of the frame {@link #scan} stopped at. */
    Http2Error error() {
        return error;
    }

    int errorStream() {
        return errorStream;
    }

    /** The gateway reset {@code streamId}: frames the client sent before it knew are not errors. */
    void resetSent(int streamId) {
        if (contains(reset, streamId)) {
            return;
        }
        reset[resetNext] = streamId;
        resetNext = (resetNext + 1) % REMEMBERED;
    }

    /** Whether a HEADERS frame on {@code streamId} came while that stream was half-closed (remote). */
    boolean halfClosedHeaders(int streamId) {
        return contains(halfClosed, streamId);
    }

    private boolean headersAllowed(int streamId, boolean endStream) {
        if (streamId == 0 || (streamId & 1) == 0) {
            return true; // the decoder refuses these itself
        }
        if (streamId > highestOpened) {
            if (highestOpened == 0) {
                firstOpened = streamId;
            } else if (streamId > highestOpened + 2) {
                skipped[skippedNext] = ((long) (highestOpened + 2) << 32) | (streamId - 2);
                skippedNext = (skippedNext + 1) % REMEMBERED;
            }
            highestOpened = streamId;
            if (endStream) {
                endedAhead[endedAheadNext] = streamId;
                endedAheadNext = (endedAheadNext + 1) % REMEMBERED;
            }
            return true;
        }
        Http2Stream stream = connection.stream(streamId);
        if (stream != null) {
            if (stream.state() == Http2Stream.State.HALF_CLOSED_REMOTE) {
                rememberHalfClosed(streamId);
            }
            return true;
        }
        if (streamId > connection.remote().lastStreamCreated()) {
            // opened by a HEADERS frame scanned here that the decoder has not read yet
            if (contains(endedAhead, streamId)) {
                rememberHalfClosed(streamId);
            }
            return true;
        }
        if (contains(reset, streamId)) {
            return true;
        }
        error = wasSkipped(streamId) ? Http2Error.PROTOCOL_ERROR : Http2Error.STREAM_CLOSED;
        errorStream = streamId;
        return false;
    }

    private void rememberHalfClosed(int streamId) {
        halfClosed[halfClosedNext] = streamId;
        halfClosedNext = (halfClosedNext + 1) % REMEMBERED;
    }

    private boolean wasSkipped(int streamId) {
        for (long range : skipped) {
            if (range != 0 && streamId >= (int) (range >>> 32) && streamId <= (int) range) {
                return true;
            }
        }
        // ids below the first stream a client opened were never opened: the first need not be 1
        return streamId < firstOpened;
    }

    private static boolean contains(int[] ids, int streamId) {
        for (int id : ids) {
            if (id == streamId) {
                return true;
            }
        }
        return false;
    }
}
