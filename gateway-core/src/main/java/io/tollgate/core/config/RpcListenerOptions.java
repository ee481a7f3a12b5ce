package io.tollgate.core.config;

import java.time.Duration;

/**
 * What every multiplexed RPC protocol's listener settings carry, because the one RPC engine reads
 * them whatever the protocol: the largest frame (past it a connection closes; a client that stops
 * reading may fall behind by one such frame) and how long a silent connection lives.
 */
public interface RpcListenerOptions extends ProtocolOptions {

    /** The largest whole frame accepted, headers included. */
    int maxFrameBytes();

    /** A connection that sends nothing, not even a heartbeat, for this long is closed. */
    Duration idleTimeout();
}
