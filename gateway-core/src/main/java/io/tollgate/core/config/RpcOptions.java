package io.tollgate.core.config;

import java.time.Duration;
import java.util.Set;

/**
 * The listener settings of an RPC protocol that needs nothing beyond what the engine reads
 * (Dubbo, most plug-ins), parsed the same way for each: {@code max_frame_bytes},
 * {@code idle_timeout} and {@code first_frame_timeout}.
 */
public record RpcOptions(int maxFrameBytes, Duration idleTimeout, Duration firstFrameTimeout)
        implements RpcListenerOptions {

    /** The keys {@link #parse} reads. */
    public static final Set<String> KEYS = Set.of("max_frame_bytes", "idle_timeout", "first_frame_timeout");

    /** Settings with the default first frame timeout. */
    public RpcOptions(int maxFrameBytes, Duration idleTimeout) {
        this(maxFrameBytes, idleTimeout, DEFAULT_FIRST_FRAME_TIMEOUT);
    }

    /** Reads {@code node} (its other keys are errors) over {@code defaults}. */
    public static RpcOptions parse(ConfigNode node, RpcOptions defaults) {
        node.allowOnly(KEYS);
        return new RpcOptions(node.integer("max_frame_bytes", defaults.maxFrameBytes(), 1024, 1 << 30),
                node.positiveDuration("idle_timeout", defaults.idleTimeout()),
                node.positiveDuration("first_frame_timeout", defaults.firstFrameTimeout()));
    }
}
