package io.tollgate.protocols.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ReferenceCounted;
import java.util.Map;

/**
 * One decoded frame of a multiplexed RPC protocol, as a view over a single retained slice of its
 * bytes: fields are read where they lie, and forwarding the frame sends the very bytes that arrived
 * (its request id rewritten in place).
 *
 * <p>Ownership: the decoder emits each frame with one reference, owned by the handler that receives
 * it, which MUST release it or pass it on (writing it through {@link RpcFrameEncoder} passes the
 * reference to the write). Not thread-safe: a frame belongs to the event loop that decoded it.
 *
 * <p>The routing view ({@link #service()}, {@link #method()}, {@link #header}) is read lazily, from
 * the frame's headers or attachments only, and never decodes the body.
 */
public interface RpcFrame extends ReferenceCounted {

    /** What a frame is, as the engine needs to know it. */
    enum Kind {
        /** A request whose sender waits for a response with the same id. */
        REQUEST,
        /** A request without response. */
        ONEWAY,
        /** The response to a request. */
        RESPONSE,
        /** A heartbeat, to be acknowledged with the same id. */
        HEARTBEAT,
        /** The acknowledgement of a heartbeat. */
        HEARTBEAT_ACK;

        /** Whether a frame of this kind is a request, oneway request or heartbeat. */
        public boolean isRequest() {
            return this == REQUEST || this == ONEWAY || this == HEARTBEAT;
        }

        /** Whether the sender of a frame of this kind waits for an answer with the same id. */
        public boolean expectsResponse() {
            return this == REQUEST || this == HEARTBEAT;
        }
    }

    /** What this frame is. */
    Kind kind();

    /**
     * The request id, which correlates a response with its request on one connection. Protocols with
     * narrower ids (Bolt's 32 bits) widen them with their sign.
     */
    long requestId();

    /**
     * Rewrites the request id in the frame's own bytes, as forwarding on a multiplexed upstream
     * connection needs; {@code requestId} is at most {@link RpcCodec#maxRequestId()} of its codec.
     * The bytes MUST be writable, as the buffers of a socket read are.
     */
    void requestId(long requestId);

    /** The whole frame's length in bytes. */
    int frameLength();

    /**
     * The whole frame, not retained. Callers MUST NOT change its indices or release it; to write it,
     * use a {@code retainedDuplicate()}.
     */
    ByteBuf bytes();

    /** The timeout the caller gave this request, in milliseconds; 0 or less when it gave none. */
    long timeoutMillis();

    /**
     * What this response's status means in HTTP terms (200 success, 503 busy, 504 timeout, 500 an
     * error), for metrics, outlier detection and the access log.
     *
     * @throws IllegalStateException when this is not a response
     */
    int httpStatus();

    /**
     * The gateway condition this response's status reports, for the retry policy: {@link RpcError#OVERFLOW}
     * for a busy server, {@link RpcError#TIMEOUT} for a server timeout; null for anything else.
     *
     * @throws IllegalStateException when this is not a response
     */
    RpcError statusError();

    /**
     * How to answer this frame, opaque to the engine (Bolt's dialect, Dubbo's serialization): kept
     * when the frame itself is gone, and given back to {@link RpcCodec#errorReply}.
     */
    int replyForm();

    /** The protocol as the access log names it, e.g. {@code BOLT/1}, {@code DUBBO}. */
    String protocolName();

    /**
     * The service the request is for (Bolt's {@code service} header, Dubbo's interface), or null.
     *
     * @throws RpcCodecException when the part holding it is malformed
     */
    String service();

    /**
     * The method called, or null.
     *
     * @throws RpcCodecException when the part holding it is malformed
     */
    String method();

    /**
     * The first value of a header or attachment, or null; {@code name} as the protocol spells it.
     *
     * @throws RpcCodecException when the part holding it is malformed
     */
    String header(String name);

    /** Whether {@link #withHeaders} can make this frame with other headers or attachments; false by default. */
    default boolean headersRewritable() {
        return false;
    }

    /**
     * A new frame, owned by the caller, with {@code changes} made to this frame's headers (Bolt's
     * header map, Dubbo's attachments): each key set to its value, or removed when the value is null.
     * Lengths are fixed and everything else is copied; this frame is left as it was, and its owner
     * still releases it.
     *
     * @throws UnsupportedOperationException when not {@link #headersRewritable()}
     * @throws RpcCodecException when the part holding the headers is malformed, or the result breaks
     *     one of the protocol's limits
     */
    default RpcFrame withHeaders(ByteBufAllocator alloc, Map<String, String> changes) {
        throw new UnsupportedOperationException(protocolName() + " frames cannot change their headers");
    }

    @Override
    RpcFrame retain();
}
