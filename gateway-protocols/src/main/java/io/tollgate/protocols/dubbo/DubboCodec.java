package io.tollgate.protocols.dubbo;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.tollgate.core.protocol.Detection;
import io.tollgate.protocols.rpc.RpcCodec;
import io.tollgate.protocols.rpc.RpcError;
import io.tollgate.protocols.rpc.RpcFrame;

/**
 * The Dubbo protocol for the gateway's RPC engine: frame boundaries from the 16-byte header, frames
 * as {@link DubboFrame} views, and the heartbeats and error replies the gateway writes itself (see
 * {@link DubboProtocol} for the wire format and the error table).
 *
 * <p>Stateless and immutable: one instance per payload limit serves every connection.
 */
public final class DubboCodec implements RpcCodec {

    /** A codec with Dubbo's default payload limit, 8 MiB. */
    public static final DubboCodec DEFAULTS = new DubboCodec(DubboProtocol.DEFAULT_PAYLOAD_LIMIT);

    private static final DubboDetector DETECTOR = new DubboDetector();

    private final int payloadLimit;

    /**
     * A codec that rejects bodies longer than {@code payloadLimit} bytes.
     *
     * @throws IllegalArgumentException when {@code payloadLimit} is below 1, too small for a heartbeat
     */
    public DubboCodec(int payloadLimit) {
        if (payloadLimit < 1) {
            throw new IllegalArgumentException("payloadLimit: " + payloadLimit + " (expected: >= 1)");
        }
        this.payloadLimit = payloadLimit;
    }

    /** The longest body accepted, in bytes. */
    public int payloadLimit() {
        return payloadLimit;
    }

    @Override
    public String protocol() {
        return DubboProtocol.NAME;
    }

    @Override
    public Detection detect(ByteBuf in) {
        return DETECTOR.detect(in);
    }

    /**
     * Checks the magic as soon as its bytes are readable and the body length as soon as the header
     * is, then returns the whole frame once it is there.
     *
     * @throws DubboCodecException for a bad magic, or a body length that is negative or over the limit
     */
    @Override
    public DubboFrame decode(ByteBuf in) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        if (readable == 0) {
            return null;
        }
        byte high = in.getByte(start);
        byte low = readable > 1 ? in.getByte(start + 1) : DubboProtocol.MAGIC_LOW;
        if (high != DubboProtocol.MAGIC_HIGH || low != DubboProtocol.MAGIC_LOW) {
            throw new DubboCodecException("magic 0x" + hex(high) + (readable > 1 ? hex(low) : "..")
                    + " (expected: 0xdabb)");
        }
        if (readable < DubboProtocol.HEADER_LENGTH) {
            return null;
        }
        int bodyLength = in.getInt(start + DubboProtocol.BODY_LENGTH_OFFSET);
        if (bodyLength < 0 || bodyLength > payloadLimit) {
            int flag = in.getByte(start + DubboProtocol.FLAG_OFFSET);
            boolean expectsResponse = DubboFrame.kindOf(flag).expectsResponse();
            throw new DubboCodecException("body length " + bodyLength + " (expected: 0.." + payloadLimit + ")",
                    in.getLong(start + DubboProtocol.REQUEST_ID_OFFSET), flag & DubboProtocol.SERIALIZATION_MASK,
                    expectsResponse);
        }
        int frameLength = DubboProtocol.HEADER_LENGTH + bodyLength;
        if (readable < frameLength) {
            return null;
        }
        return new DubboFrame(in.readRetainedSlice(frameLength));
    }

    /** Dubbo's ids are 64-bit. */
    @Override
    public long maxRequestId() {
        return Long.MAX_VALUE;
    }

    /** A two-way hessian2 heartbeat event; see {@link DubboHeartbeats#request}. */
    @Override
    public ByteBuf heartbeat(ByteBufAllocator alloc, long requestId) {
        return DubboHeartbeats.request(alloc, requestId);
    }

    /** A heartbeat event response with status OK; see {@link DubboHeartbeats#response}. */
    @Override
    public ByteBuf heartbeatAck(ByteBufAllocator alloc, RpcFrame heartbeat) {
        requireNonNull(heartbeat, "heartbeat");
        if (heartbeat.kind() != RpcFrame.Kind.HEARTBEAT) {
            throw new IllegalArgumentException("heartbeat: " + heartbeat + " (expected: a HEARTBEAT)");
        }
        return DubboHeartbeats.response(alloc, heartbeat.requestId());
    }

    /**
     * Whether a heartbeat response's status is {@link DubboStatus#OK}.
     *
     * @throws IllegalArgumentException when {@code heartbeatAck} is not a Dubbo heartbeat response
     */
    @Override
    public boolean healthy(RpcFrame heartbeatAck) {
        requireNonNull(heartbeatAck, "heartbeatAck");
        if (!(heartbeatAck instanceof DubboFrame frame) || frame.kind() != RpcFrame.Kind.HEARTBEAT_ACK) {
            throw new IllegalArgumentException("heartbeatAck: " + heartbeatAck + " (expected: a Dubbo HEARTBEAT_ACK)");
        }
        return frame.status() == DubboStatus.OK.code();
    }

    /**
     * A hessian2 response with the status and message of {@code error} (the table in
     * {@link DubboProtocol}). {@code replyForm}, the request's serialization id, changes nothing: the
     * reply is hessian2, which every Dubbo consumer reads an error message with (see
     * {@link DubboResponses}).
     */
    @Override
    public ByteBuf errorReply(ByteBufAllocator alloc, int replyForm, long requestId, RpcError error) {
        return DubboResponses.error(alloc, requestId, statusOf(error), messageOf(error));
    }

    @Override
    public int httpStatus(RpcError error) {
        return switch (error) {
            case PERMISSION_DENIED -> 403;
            case RATE_LIMITED -> 429;
            default -> statusOf(error).httpStatus();
        };
    }

    /** The status the gateway answers {@code error} with. */
    static DubboStatus statusOf(RpcError error) {
        return switch (requireNonNull(error, "error")) {
            case NO_ROUTE, NO_HEALTHY_UPSTREAM -> DubboStatus.SERVICE_NOT_FOUND;
            case OVERFLOW, RATE_LIMITED -> DubboStatus.SERVER_THREADPOOL_EXHAUSTED_ERROR;
            case TIMEOUT -> DubboStatus.SERVER_TIMEOUT;
            case CONNECTION_CLOSED -> DubboStatus.BAD_RESPONSE;
            case MALFORMED -> DubboStatus.BAD_REQUEST;
            case PERMISSION_DENIED -> DubboStatus.SERVICE_ERROR;
            case SERVER_ERROR -> DubboStatus.SERVER_ERROR;
        };
    }

    /** The message the gateway answers {@code error} with: the condition, never the request. */
    static String messageOf(RpcError error) {
        return switch (requireNonNull(error, "error")) {
            case NO_ROUTE -> "tollgate: no route";
            case NO_HEALTHY_UPSTREAM -> "tollgate: no healthy upstream";
            case OVERFLOW -> "tollgate: upstream overflow";
            case RATE_LIMITED -> "tollgate: rate limited";
            case TIMEOUT -> "tollgate: upstream timeout";
            case CONNECTION_CLOSED -> "tollgate: upstream connection closed";
            case MALFORMED -> "tollgate: malformed request";
            case PERMISSION_DENIED -> "tollgate: permission denied";
            case SERVER_ERROR -> "tollgate: server error";
        };
    }

    private static String hex(byte b) {
        return String.format("%02x", b & 0xff);
    }
}
