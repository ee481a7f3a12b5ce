package io.tollgate.protocols.bolt;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.Map;

/**
 * Builds heartbeats: the acknowledgement the gateway answers itself to a client's heartbeat (Bolt
 * clients send one after 15 s idle), and the heartbeat that keeps an idle upstream connection alive.
 *
 * <p>Every method returns a new buffer from the given allocator, owned by the caller, who writes it
 * (the write releases it) or releases it.
 */
public final class BoltHeartbeats {

    private BoltHeartbeats() {
    }

    /**
     * The acknowledgement of {@code heartbeat}: same id and dialect, status success, empty parts.
     *
     * @throws IllegalArgumentException when {@code heartbeat} is not a heartbeat
     */
    public static ByteBuf ack(ByteBufAllocator alloc, BoltFrame heartbeat) {
        requireNonNull(alloc, "alloc");
        requireNonNull(heartbeat, "heartbeat");
        if (heartbeat.kind() != BoltFrame.Kind.HEARTBEAT) {
            throw new IllegalArgumentException("heartbeat: " + heartbeat + " (expected: a HEARTBEAT)");
        }
        return BoltFrameWriter.write(alloc, heartbeat.dialect(), BoltFrame.Kind.HEARTBEAT_ACK,
                heartbeat.requestId(), BoltStatus.SUCCESS.code(), null, Map.of(), null);
    }

    /** A heartbeat request with {@code requestId}, no timeout and empty parts, in {@code dialect}. */
    public static ByteBuf request(ByteBufAllocator alloc, BoltDialect dialect, long requestId) {
        requireNonNull(alloc, "alloc");
        requireNonNull(dialect, "dialect");
        return BoltFrameWriter.write(alloc, dialect, BoltFrame.Kind.HEARTBEAT, requestId, BoltProtocol.NO_TIMEOUT,
                null, Map.of(), null);
    }
}
