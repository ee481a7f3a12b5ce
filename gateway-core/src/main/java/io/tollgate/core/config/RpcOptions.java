package io.tollgate.core.config;

import java.time.Duration;
import java.util.Set;

/**
 * The listener settings of an RPC protocol that needs nothing beyond what the engine reads
 * (Dubbo, most plug-ins), parsed the same way for each: {@code max_frame_bytes} and
 * {@code idle_timeout}.
 */
public record RpcOptions(int maxFrameBytes, Duration idleTimeout) implements RpcListenerOptions {

    /** The keys {@link #parse} reads. */
    public static final Set<String> KEYS = Set.of("max_frame_bytes", "idle_timeout");

    /** Reads {@code node} (its other keys are errors) over {@code defaults}. */
    public static RpcOptions parse(ConfigNode node, RpcOptions defaults) {
        node.allowOnly(KEYS);
        return new RpcOptions(node.integer("max_frame_bytes", defaults.maxFrameBytes(), 1024, 1 << 30),
                node.positiveDuration("idle_timeout", defaults.idleTimeout()));
    }
}
