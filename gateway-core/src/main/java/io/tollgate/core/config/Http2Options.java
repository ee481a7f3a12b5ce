package io.tollgate.core.config;

import java.time.Duration;

/**
 * Settings and protections of downstream HTTP/2 connections (h2c with prior knowledge or by
 * upgrade); the first four are announced to the client in the SETTINGS frame.
 *
 * @param maxConcurrentStreams streams one client may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS)
 * @param initialWindowBytes each stream's flow-control window (SETTINGS_INITIAL_WINDOW_SIZE): the
 *     most the gateway accepts on a stream before the client must wait for it to be forwarded
 * @param maxFrameBytes largest frame payload accepted (SETTINGS_MAX_FRAME_SIZE)
 * @param maxHeaderListBytes largest decoded header list accepted (SETTINGS_MAX_HEADER_LIST_SIZE);
 *     also bounds HPACK expansion
 * @param maxResetsPerWindow RST_STREAM frames a client may send per {@code resetWindow} before
 *     the connection is closed (rapid reset)
 * @param resetWindow the window {@code maxResetsPerWindow} is counted over
 * @param maxQueuedControlFrames control frames (SETTINGS and PING acknowledgements, RST_STREAM)
 *     queued for a client that does not read before the connection is closed (settings and ping
 *     floods)
 * @param maxSmallContinuationFrames CONTINUATION frames with tiny payloads tolerated in one
 *     header block (CONTINUATION flood)
 * @param windowHoldTimeout a stream the gateway cannot write to because the client keeps its
 *     window closed is reset after this long (zero-window hold)
 * @param firstFrameTimeout a connection whose preface and first SETTINGS frame do not arrive
 *     within this time is closed
 */
public record Http2Options(
        int maxConcurrentStreams,
        int initialWindowBytes,
        int maxFrameBytes,
        int maxHeaderListBytes,
        int maxResetsPerWindow,
        Duration resetWindow,
        int maxQueuedControlFrames,
        int maxSmallContinuationFrames,
        Duration windowHoldTimeout,
        Duration firstFrameTimeout) {

    /** The defaults, used when the listener says nothing. */
    public static final Http2Options DEFAULTS = new Http2Options(
            100, 1024 * 1024, 16 * 1024, 64 * 1024, 200, Duration.ofSeconds(30), 10_000, 16, Duration.ofSeconds(30),
            Duration.ofSeconds(10));

    public Http2Options {
        if (maxConcurrentStreams < 1) {
            throw new IllegalArgumentException("maxConcurrentStreams: " + maxConcurrentStreams + " (expected: >= 1)");
        }
        if (initialWindowBytes < 1) {
            throw new IllegalArgumentException("initialWindowBytes: " + initialWindowBytes + " (expected: >= 1)");
        }
        if (maxFrameBytes < 16_384 || maxFrameBytes > 16_777_215) {
            throw new IllegalArgumentException("maxFrameBytes: " + maxFrameBytes + " (expected: 16384..16777215)");
        }
    }
}
