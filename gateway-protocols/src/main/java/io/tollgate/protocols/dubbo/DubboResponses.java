package io.tollgate.protocols.dubbo;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Builds the responses the gateway answers by itself (no route, no healthy host, timeout, busy,
 * malformed request), so that a Dubbo consumer gets a native error with its request id and a clear
 * message at once instead of waiting for its own timeout.
 *
 * <p>The response is written in hessian2 whatever the request's serialization: a Dubbo consumer
 * reads the message of a non-OK response with the serialization the response's own flag names, and
 * hessian2 ships with every Dubbo.
 *
 * <p>Returns a new buffer from the given allocator, owned by the caller, who writes it (the write
 * releases it) or releases it.
 */
public final class DubboResponses {

    private DubboResponses() {
    }

    /**
     * A response with {@code status} and {@code message} as its body (a hessian2 string, which
     * becomes the message of the consumer's exception).
     *
     * @throws IllegalArgumentException when {@code status} is {@link DubboStatus#OK}, whose body is a result
     */
    public static ByteBuf error(ByteBufAllocator alloc, long requestId, DubboStatus status, String message) {
        requireNonNull(alloc, "alloc");
        requireNonNull(status, "status");
        requireNonNull(message, "message");
        if (status == DubboStatus.OK) {
            throw new IllegalArgumentException("status: OK (expected: an error status)");
        }
        return DubboFrameWriter.write(alloc, DubboProtocol.SERIALIZATION_HESSIAN2, status.code(), requestId, message);
    }
}
