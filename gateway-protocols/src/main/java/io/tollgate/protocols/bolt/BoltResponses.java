package io.tollgate.protocols.bolt;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.Map;

/**
 * Builds the responses the gateway answers by itself (no route, no healthy host, timeout, codec
 * error), so that a Bolt client gets a native error carrying its request id at once instead of
 * waiting for its own timeout.
 *
 * <p>Every method returns a new buffer from the given allocator, owned by the caller, who writes it
 * (the write releases it) or releases it.
 */
public final class BoltResponses {

    private BoltResponses() {
    }

    /**
     * A response to {@code request} with {@code status} and nothing else, in the request's dialect.
     *
     * @throws IllegalArgumentException when {@code request} is not a two-way request
     */
    public static ByteBuf status(ByteBufAllocator alloc, BoltFrame request, BoltStatus status) {
        requireNonNull(request, "request");
        if (request.kind() != BoltFrame.Kind.REQUEST) {
            throw new IllegalArgumentException("request: " + request + " (expected: a two-way REQUEST)");
        }
        return status(alloc, request.dialect(), request.requestId(), status);
    }

    /**
     * A response with {@code status} and nothing else, for a request known only by its id and dialect
     * (as a {@link BoltCodecException} reports them).
     */
    public static ByteBuf status(ByteBufAllocator alloc, BoltDialect dialect, long requestId, BoltStatus status) {
        return response(alloc, dialect, requestId, status, null, Map.of(), null);
    }

    /**
     * A response with every part given.
     *
     * @param className the response class name, or {@code null} for none
     * @param headers the header map, empty for none
     * @param content the serialized body, or {@code null} for none; copied, not released
     */
    public static ByteBuf response(ByteBufAllocator alloc, BoltDialect dialect, long requestId, BoltStatus status,
            String className, Map<String, String> headers, ByteBuf content) {
        requireNonNull(alloc, "alloc");
        requireNonNull(dialect, "dialect");
        requireNonNull(status, "status");
        requireNonNull(headers, "headers");
        return BoltFrameWriter.write(alloc, dialect, BoltFrame.Kind.RESPONSE, requestId, status.code(),
                className, headers, content);
    }
}
