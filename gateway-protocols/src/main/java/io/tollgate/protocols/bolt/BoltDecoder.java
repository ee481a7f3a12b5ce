package io.tollgate.protocols.bolt;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Cuts a Bolt byte stream (v1 and v2 frames, mixed if a peer likes) into {@link BoltFrame}s, each a
 * retained slice of the received bytes, so that no frame is ever copied.
 *
 * <p>It peeks at the fixed header without consuming anything, checks every length against
 * {@link BoltCodecOptions} as soon as the fixed header is there, before it waits for (and buffers)
 * the rest, and only then consumes the whole frame at once. The emitted frames are owned by the
 * next handler, which MUST release them.
 *
 * <p>A malformed frame (unknown protocol code, {@code ver1}, type or (type, cmdcode) pair, negative
 * length, a length over the limits, CRC mismatch) raises a {@link BoltCodecException} carrying the
 * request id when the fixed header could be read; from then on the decoder discards everything the
 * connection sends, since frame boundaries are lost. The handler above answers
 * {@link BoltStatus#CODEC_EXCEPTION} and closes.
 *
 * <p>Stateful: one instance per channel, never shared.
 */
public final class BoltDecoder extends ByteToMessageDecoder {

    private enum State {
        /** Waiting for a whole fixed header; the frame length is not known yet. */
        READ_FIXED_HEADER,
        /** The fixed header passed every check; waiting for {@link #frameLength} bytes. */
        READ_FRAME,
        /** A frame was malformed; everything that follows is discarded. */
        FAILED
    }

    private final BoltCodecOptions options;
    private State state = State.READ_FIXED_HEADER;
    private BoltLayout layout;
    private BoltFrame.Kind kind;
    private boolean crc;
    private int frameLength;

    /** A decoder with {@link BoltCodecOptions#DEFAULTS}. */
    public BoltDecoder() {
        this(BoltCodecOptions.DEFAULTS);
    }

    /** A decoder enforcing {@code options}. */
    public BoltDecoder(BoltCodecOptions options) {
        this.options = requireNonNull(options, "options");
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (state == State.FAILED) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (state == State.READ_FIXED_HEADER) {
            if (!readFixedHeader(in)) {
                return;
            }
            state = State.READ_FRAME;
        }
        if (in.readableBytes() < frameLength) {
            return;
        }
        out.add(readFrame(in));
        state = State.READ_FIXED_HEADER;
    }

    /** Validates the fixed header at the reader index; false when it is not all there yet. */
    private boolean readFixedHeader(ByteBuf in) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        byte protocolCode = in.getByte(start);
        if (protocolCode != BoltProtocol.PROTOCOL_V1 && protocolCode != BoltProtocol.PROTOCOL_V2) {
            throw fail(in, new BoltCodecException("unknown protocol code 0x" + Integer.toHexString(protocolCode & 0xff)
                    + " (expected: 0x01 or 0x02)"));
        }
        boolean v2 = protocolCode == BoltProtocol.PROTOCOL_V2;
        int typeOffset = BoltLayout.of(protocolCode, true).typeOffset;
        if (readable <= typeOffset) {
            return false;
        }
        if (v2) {
            byte version = in.getByte(start + BoltLayout.VERSION_OFFSET);
            if (version != BoltProtocol.V2_VERSION_1 && version != BoltProtocol.V2_VERSION_2) {
                throw fail(in, new BoltCodecException("unknown bolt v2 ver1 " + version + " (expected: 1 or 2)"));
            }
        }
        byte type = in.getByte(start + typeOffset);
        if (type != BoltProtocol.TYPE_RESPONSE && type != BoltProtocol.TYPE_REQUEST && type != BoltProtocol.TYPE_ONEWAY) {
            throw fail(in, new BoltCodecException("unknown type " + type + " (expected: 0, 1 or 2)"));
        }
        layout = BoltLayout.of(protocolCode, type != BoltProtocol.TYPE_RESPONSE);
        if (readable < layout.fixedLength) {
            return false;
        }
        short cmdCode = in.getShort(start + layout.cmdCodeOffset);
        kind = BoltFrame.Kind.of(type, cmdCode);
        if (kind == null) {
            throw fail(in, malformed(in, "unknown cmdcode " + cmdCode + " for type " + type
                    + " (expected: 0 heartbeat, or 1 with a request type, 2 with the response type)"));
        }
        crc = BoltDialect.hasCrc(protocolCode, layout.protocolVersion(in, start), layout.switches(in, start));
        frameLength = checkedLength(in, start);
        return true;
    }

    /** The whole frame's length from the fixed header, after checking each part against the limits. */
    private int checkedLength(ByteBuf in, int start) {
        int classLength = in.getShort(start + layout.classLengthOffset);
        int headerLength = in.getShort(start + layout.headerLengthOffset);
        int contentLength = in.getInt(start + layout.contentLengthOffset);
        if (classLength < 0 || headerLength < 0 || contentLength < 0) {
            throw fail(in, malformed(in, "negative length: class " + classLength + ", header " + headerLength
                    + ", content " + contentLength + " (expected: >= 0)"));
        }
        if (classLength > options.maxClassLength()) {
            throw fail(in, malformed(in, "class name of " + classLength + " bytes (expected: <= "
                    + options.maxClassLength() + ")"));
        }
        if (headerLength > options.maxHeaderLength()) {
            throw fail(in, malformed(in, "header map of " + headerLength + " bytes (expected: <= "
                    + options.maxHeaderLength() + ")"));
        }
        long length = (long) layout.fixedLength + classLength + headerLength + contentLength
                + (crc ? BoltProtocol.CRC_LENGTH : 0);
        if (length > options.maxFrameSize()) {
            throw fail(in, malformed(in, "frame of " + length + " bytes (expected: <= " + options.maxFrameSize()
                    + ")"));
        }
        return (int) length;
    }

    private BoltFrame readFrame(ByteBuf in) {
        if (crc) {
            int start = in.readerIndex();
            int covered = frameLength - BoltProtocol.CRC_LENGTH;
            int expected = in.getInt(start + covered);
            int actual = BoltCrc.compute(in, start, covered);
            if (expected != actual) {
                throw fail(in, malformed(in, "CRC32 0x" + Integer.toHexString(expected) + " (expected: 0x"
                        + Integer.toHexString(actual) + ")"));
            }
        }
        return new BoltFrame(in.readRetainedSlice(frameLength), layout, kind);
    }

    /** An error about the frame at the reader index, whose whole fixed header is there, with its id and dialect. */
    private BoltCodecException malformed(ByteBuf in, String message) {
        int start = in.readerIndex();
        boolean expectsResponse = in.getByte(start + layout.typeOffset) == BoltProtocol.TYPE_REQUEST;
        return new BoltCodecException(message, layout.dialect(in, start), in.getInt(start + layout.requestIdOffset),
                expectsResponse);
    }

    /** Enters {@link State#FAILED}, drops what is buffered, and hands back the exception to throw. */
    private BoltCodecException fail(ByteBuf in, BoltCodecException cause) {
        state = State.FAILED;
        in.skipBytes(in.readableBytes());
        return cause;
    }
}
