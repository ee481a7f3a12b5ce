package io.tollgate.protocols.bolt;

import io.tollgate.core.config.RpcListenerOptions;
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
 * @param firstFrameTimeout a new connection whose first whole frame does not arrive within this
 *     time is closed
 */
public record BoltOptions(int maxFrameBytes, int maxClassBytes, int maxHeaderBytes, Duration idleTimeout,
        Duration firstFrameTimeout) implements RpcListenerOptions {

    /**
     * The defaults, used when the listener says nothing: 16 MiB frames, 1 KiB class names, 32 KiB
     * headers, 90 s idle, 10 s to the first frame.
     */
    public static final BoltOptions DEFAULTS = new BoltOptions(16 * 1024 * 1024, 1024, Short.MAX_VALUE,
            Duration.ofSeconds(90), DEFAULT_FIRST_FRAME_TIMEOUT);

    /** Settings with the default first frame timeout. */
    public BoltOptions(int maxFrameBytes, int maxClassBytes, int maxHeaderBytes, Duration idleTimeout) {
        this(maxFrameBytes, maxClassBytes, maxHeaderBytes, idleTimeout, DEFAULT_FIRST_FRAME_TIMEOUT);
    }
}
