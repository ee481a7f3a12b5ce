package io.tollgate.protocols.dubbo;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Builds heartbeats: the one that keeps an idle upstream connection alive and tests it, and the
 * response the gateway answers a client's heartbeat with (Dubbo consumers send one after 60 s idle).
 *
 * <p>Both are hessian2 with the hessian2 null as body, as Dubbo writes them. A Dubbo peer recognises
 * a heartbeat response by its body being the null of the serialization its flag names, so the
 * response is hessian2 even to a heartbeat in another serialization.
 *
 * <p>Every method returns a new buffer from the given allocator, owned by the caller, who writes it
 * (the write releases it) or releases it.
 */
public final class DubboHeartbeats {

    private static final int REQUEST_FLAG = DubboProtocol.FLAG_REQUEST | DubboProtocol.FLAG_TWO_WAY
            | DubboProtocol.FLAG_EVENT | DubboProtocol.SERIALIZATION_HESSIAN2;
    private static final int RESPONSE_FLAG = DubboProtocol.FLAG_EVENT | DubboProtocol.SERIALIZATION_HESSIAN2;

    private DubboHeartbeats() {
    }

    /** A heartbeat request with {@code requestId}: flag 0xe2, body {@code N}. */
    public static ByteBuf request(ByteBufAllocator alloc, long requestId) {
        requireNonNull(alloc, "alloc");
        return DubboFrameWriter.write(alloc, REQUEST_FLAG, 0, requestId, null);
    }

    /** The response to the heartbeat with {@code requestId}: flag 0x22, status 20, body {@code N}. */
    public static ByteBuf response(ByteBufAllocator alloc, long requestId) {
        requireNonNull(alloc, "alloc");
        return DubboFrameWriter.write(alloc, RESPONSE_FLAG, DubboStatus.OK.code(), requestId, null);
    }
}
