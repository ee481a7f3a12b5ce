package io.tollgate.core.config;

import java.time.Duration;

/**
 * What every multiplexed RPC protocol's listener settings carry, because the one RPC engine reads
 * them whatever the protocol: the largest frame (past it a connection closes; a client that stops
 * reading may fall behind by one such frame), how long a silent connection lives and how long a
 * new one may take to send its first frame.
 */
public interface RpcListenerOptions extends ProtocolOptions {

    /** The largest whole frame accepted, headers included. */
    int maxFrameBytes();

    /** A connection that sends nothing, not even a heartbeat, for this long is closed. */
    Duration idleTimeout();

    /** What {@link #firstFrameTimeout} is when a protocol's settings do not say. */
    Duration DEFAULT_FIRST_FRAME_TIMEOUT = Duration.ofSeconds(10);

    /** A connection whose first whole frame does not arrive within this time is closed. */
    default Duration firstFrameTimeout() {
        return DEFAULT_FIRST_FRAME_TIMEOUT;
    }
}
