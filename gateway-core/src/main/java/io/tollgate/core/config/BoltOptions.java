package io.tollgate.core.config;

import java.time.Duration;

/**
 * Limits and timeouts of downstream SOFA Bolt connections; a frame over a limit closes only the
 * connection that sent it.
 *
 * @param maxFrameBytes largest whole frame accepted, fixed header and CRC included
 * @param maxClassBytes longest class name accepted
 * @param maxHeaderBytes largest header map accepted
 * @param idleTimeout a connection that sends nothing, not even a heartbeat, for this long is
 *     closed; Bolt clients send a heartbeat after 15 s idle, so keep it well above that
 */
public record BoltOptions(int maxFrameBytes, int maxClassBytes, int maxHeaderBytes, Duration idleTimeout)
        implements RpcListenerOptions {

    /** The defaults, used when the listener says nothing: 16 MiB frames, 1 KiB class names, 32 KiB headers, 90 s. */
    public static final BoltOptions DEFAULTS = new BoltOptions(16 * 1024 * 1024, 1024, Short.MAX_VALUE, Duration.ofSeconds(90));
}
