package io.tollgate.protocols.bolt;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.tollgate.core.protocol.Detection;
import io.tollgate.protocols.rpc.RpcCodec;
import io.tollgate.protocols.rpc.RpcError;
import io.tollgate.protocols.rpc.RpcFrame;

/**
 * SOFA Bolt (v1 and v2, mixed if a peer likes) as the RPC engine drives it: frames cut from the byte
 * stream as retained slices, checked against {@link BoltCodecOptions} on the fixed header before
 * the rest is awaited; heartbeats and gateway-made replies in the dialect of the frame they answer.
 *
 * <p>A malformed frame (unknown protocol code, {@code ver1}, type or (type, cmdcode) pair, negative
 * length, a length over the limits, CRC mismatch) raises a {@link BoltCodecException} carrying the
 * request id and dialect when the fixed header could be read.
 *
 * <table>
 *   <caption>gateway errors as Bolt statuses</caption>
 *   <tr><th>error</th><th>status</th></tr>
 *   <tr><td>no route</td><td>{@link BoltStatus#NO_PROCESSOR}</td></tr>
 *   <tr><td>no healthy upstream, connection closed</td><td>{@link BoltStatus#CONNECTION_CLOSED}</td></tr>
 *   <tr><td>overflow</td><td>{@link BoltStatus#SERVER_THREADPOOL_BUSY}</td></tr>
 *   <tr><td>timeout</td><td>{@link BoltStatus#TIMEOUT}</td></tr>
 *   <tr><td>malformed</td><td>{@link BoltStatus#CODEC_EXCEPTION}</td></tr>
 * </table>
 */
public final class BoltCodec implements RpcCodec {

    /** A codec with {@link BoltCodecOptions#DEFAULTS}, as upstream connections use. */
    public static final BoltCodec DEFAULTS = new BoltCodec(BoltCodecOptions.DEFAULTS);

    private static final BoltDetector DETECTOR = new BoltDetector();

    private final BoltCodecOptions options;

    public BoltCodec(BoltCodecOptions options) {
        this.options = requireNonNull(options, "options");
    }

    @Override
    public String protocol() {
        return BoltProtocol.NAME;
    }

    @Override
    public Detection detect(ByteBuf in) {
        return DETECTOR.detect(in);
    }

    @Override
    public RpcFrame decode(ByteBuf in) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        byte protocolCode = in.getByte(start);
        if (protocolCode != BoltProtocol.PROTOCOL_V1 && protocolCode != BoltProtocol.PROTOCOL_V2) {
            throw new BoltCodecException("unknown protocol code 0x" + Integer.toHexString(protocolCode & 0xff)
                    + " (expected: 0x01 or 0x02)");
        }
        int typeOffset = BoltLayout.of(protocolCode, true).typeOffset;
        if (readable <= typeOffset) {
            return null;
        }
        if (protocolCode == BoltProtocol.PROTOCOL_V2) {
            byte version = in.getByte(start + BoltLayout.VERSION_OFFSET);
            if (version != BoltProtocol.V2_VERSION_1 && version != BoltProtocol.V2_VERSION_2) {
                throw new BoltCodecException("unknown bolt v2 ver1 " + version + " (expected: 1 or 2)");
            }
        }
        byte type = in.getByte(start + typeOffset);
        if (type != BoltProtocol.TYPE_RESPONSE && type != BoltProtocol.TYPE_REQUEST && type != BoltProtocol.TYPE_ONEWAY) {
            throw new BoltCodecException("unknown type " + type + " (expected: 0, 1 or 2)");
        }
        BoltLayout layout = BoltLayout.of(protocolCode, type != BoltProtocol.TYPE_RESPONSE);
        if (readable < layout.fixedLength) {
            return null;
        }
        short cmdCode = in.getShort(start + layout.cmdCodeOffset);
        RpcFrame.Kind kind = BoltKinds.of(type, cmdCode);
        if (kind == null) {
            throw malformed(in, layout, "unknown cmdcode " + cmdCode + " for type " + type
                    + " (expected: 0 heartbeat, or 1 with a request type, 2 with the response type)");
        }
        boolean crc = BoltDialect.hasCrc(protocolCode, layout.protocolVersion(in, start), layout.switches(in, start));
        int frameLength = checkedLength(in, layout, crc);
        if (readable < frameLength) {
            return null;
        }
        if (crc) {
            int covered = frameLength - BoltProtocol.CRC_LENGTH;
            int expected = in.getInt(start + covered);
            int actual = BoltCrc.compute(in, start, covered);
            if (expected != actual) {
                throw malformed(in, layout, "CRC32 0x" + Integer.toHexString(expected) + " (expected: 0x"
                        + Integer.toHexString(actual) + ")");
            }
        }
        return new BoltFrame(in.readRetainedSlice(frameLength), layout, kind);
    }

    /** The whole frame's length from the fixed header, after checking each part against the limits. */
    private int checkedLength(ByteBuf in, BoltLayout layout, boolean crc) {
        int start = in.readerIndex();
        int classLength = in.getShort(start + layout.classLengthOffset);
        int headerLength = in.getShort(start + layout.headerLengthOffset);
        int contentLength = in.getInt(start + layout.contentLengthOffset);
        if (classLength < 0 || headerLength < 0 || contentLength < 0) {
            throw malformed(in, layout, "negative length: class " + classLength + ", header " + headerLength
                    + ", content " + contentLength + " (expected: >= 0)");
        }
        if (classLength > options.maxClassLength()) {
            throw malformed(in, layout, "class name of " + classLength + " bytes (expected: <= "
                    + options.maxClassLength() + ")");
        }
        if (headerLength > options.maxHeaderLength()) {
            throw malformed(in, layout, "header map of " + headerLength + " bytes (expected: <= "
                    + options.maxHeaderLength() + ")");
        }
        long length = (long) layout.fixedLength + classLength + headerLength + contentLength
                + (crc ? BoltProtocol.CRC_LENGTH : 0);
        if (length > options.maxFrameSize()) {
            throw malformed(in, layout, "frame of " + length + " bytes (expected: <= " + options.maxFrameSize() + ")");
        }
        return (int) length;
    }

    /** An error about the frame at the reader index, whose whole fixed header is there, with its id and dialect. */
    private static BoltCodecException malformed(ByteBuf in, BoltLayout layout, String message) {
        int start = in.readerIndex();
        boolean expectsResponse = in.getByte(start + layout.typeOffset) == BoltProtocol.TYPE_REQUEST;
        return new BoltCodecException(message, layout.dialect(in, start), in.getInt(start + layout.requestIdOffset),
                expectsResponse);
    }

    /** Bolt ids are int32; upstream connections count up to the largest positive one and wrap. */
    @Override
    public long maxRequestId() {
        return Integer.MAX_VALUE;
    }

    /** A Bolt v1 Hessian2 heartbeat, what a SOFA Bolt client sends. */
    @Override
    public ByteBuf heartbeat(ByteBufAllocator alloc, long requestId) {
        return BoltHeartbeats.request(alloc, BoltDialect.V1_HESSIAN2, requestId);
    }

    @Override
    public ByteBuf heartbeatAck(ByteBufAllocator alloc, RpcFrame heartbeat) {
        return BoltHeartbeats.ack(alloc, (BoltFrame) heartbeat);
    }

    @Override
    public boolean healthy(RpcFrame heartbeatAck) {
        return ((BoltFrame) heartbeatAck).status() == BoltStatus.SUCCESS.code();
    }

    @Override
    public ByteBuf errorReply(ByteBufAllocator alloc, int replyForm, long requestId, RpcError error) {
        return BoltResponses.status(alloc, BoltDialect.unpack(replyForm), requestId, status(error));
    }

    @Override
    public int httpStatus(RpcError error) {
        return switch (error) {
            case PERMISSION_DENIED -> 403;
            case RATE_LIMITED -> 429;
            default -> status(error).httpStatus();
        };
    }

    private static BoltStatus status(RpcError error) {
        return switch (error) {
            case NO_ROUTE -> BoltStatus.NO_PROCESSOR;
            case NO_HEALTHY_UPSTREAM, CONNECTION_CLOSED -> BoltStatus.CONNECTION_CLOSED;
            case OVERFLOW, RATE_LIMITED -> BoltStatus.SERVER_THREADPOOL_BUSY;
            case TIMEOUT -> BoltStatus.TIMEOUT;
            case MALFORMED -> BoltStatus.CODEC_EXCEPTION;
            case PERMISSION_DENIED, SERVER_ERROR -> BoltStatus.SERVER_EXCEPTION;
        };
    }
}
