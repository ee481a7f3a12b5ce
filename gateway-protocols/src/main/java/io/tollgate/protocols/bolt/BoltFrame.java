package io.tollgate.protocols.bolt;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.tollgate.protocols.rpc.SlicedRpcFrame;
import io.tollgate.protocols.rpc.RpcError;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One decoded Bolt frame (v1 or v2) as a view over a single retained slice of its bytes: fields are
 * read where they lie, nothing is copied, and forwarding it sends the very bytes that arrived.
 * Its {@link #frameLength()} counts the CRC of a v2 frame that has one.
 *
 * <p>Ownership: an {@link io.tollgate.protocols.rpc.RpcFrameDecoder} of a {@link BoltCodec} emits each
 * frame with a reference count of one, owned by the
 * handler that receives it. That handler MUST either {@link #release()} it or pass it on (writing it
 * through {@link io.tollgate.protocols.rpc.RpcFrameEncoder} passes ownership to the write). The slices returned by
 * {@link #bytes()}, {@link #className()}, {@link #header()} and {@link #content()} are not retained:
 * they are valid only while the frame is, and MUST NOT be released by the caller.
 *
 * <p>Not thread-safe: a frame belongs to the event loop that decoded it.
 */
public final class BoltFrame extends SlicedRpcFrame {

    private static final ByteBuf SERVICE_KEY = utf8Key(BoltProtocol.HEADER_SERVICE);
    private static final ByteBuf METHOD_KEY = utf8Key(BoltProtocol.HEADER_METHOD_NAME);

    private final BoltLayout layout;
    private Map<String, String> headers;
    private boolean headersChecked;
    private String service;
    private boolean serviceRead;
    private String method;
    private boolean methodRead;

    /**
     * Wraps the readable bytes of {@code bytes}, one whole frame already validated by the decoder, and
     * takes over the caller's reference.
     */
    BoltFrame(ByteBuf bytes, BoltLayout layout, Kind kind) {
        super(bytes, kind, layout.requestIdOffset, Integer.BYTES);
        this.layout = layout;
    }

    /** {@link BoltProtocol#PROTOCOL_V1} or {@link BoltProtocol#PROTOCOL_V2}. */
    public byte protocolCode() {
        return layout.protocolCode;
    }

    /** The v2 {@code ver1} byte; 1 for v1 frames, which have none. */
    public byte protocolVersion() {
        return layout.protocolVersion(bytes, base);
    }

    /** The {@code ver2} command version. */
    public byte commandVersion() {
        return bytes.getByte(base + layout.commandVersionOffset);
    }

    /** The serialization codec id, {@link BoltProtocol#CODEC_HESSIAN2} usually. */
    public byte codec() {
        return bytes.getByte(base + layout.codecOffset);
    }

    /** The v2 switch byte; 0 for v1 frames, which have none. */
    public byte switches() {
        return layout.switches(bytes, base);
    }

    /** Whether the frame ends with a CRC32 of everything before it. */
    public boolean hasCrc() {
        return BoltDialect.hasCrc(layout.protocolCode, protocolVersion(), switches());
    }

    /** The dialect a reply to this frame must be written in. */
    public BoltDialect dialect() {
        return layout.dialect(bytes, base);
    }

    /**
     * Rewrites the request id, an int32, in the frame's own bytes. When the frame ends with a CRC32
     * the CRC is recomputed, because Bolt peers verify it and reject the frame otherwise; that costs
     * one pass over the frame.
     */
    @Override
    public void requestId(long requestId) {
        super.requestId(requestId);
        if (hasCrc()) {
            int crcIndex = base + length - BoltProtocol.CRC_LENGTH;
            bytes.setInt(crcIndex, BoltCrc.compute(bytes, base, length - BoltProtocol.CRC_LENGTH));
        }
    }

    /**
     * The request's timeout in milliseconds, -1 when none.
     *
     * @throws IllegalStateException when this is a response
     */
    public int timeout() {
        if (!kind().isRequest()) {
            throw new IllegalStateException("timeout of a " + kind() + " (expected: a request or heartbeat)");
        }
        return bytes.getInt(base + layout.timeoutOrStatusOffset);
    }

    /**
     * The response status; see {@link BoltStatus}.
     *
     * @throws IllegalStateException when this is a request
     */
    public int status() {
        requireResponse("status");
        return bytes.getShort(base + layout.timeoutOrStatusOffset);
    }

    /** The request's timeout in milliseconds; -1 (none) reads as no timeout. */
    @Override
    public long timeoutMillis() {
        return timeout();
    }

    /** The HTTP meaning of the response status, see {@link BoltStatus#httpStatusOf}. */
    @Override
    public int httpStatus() {
        return BoltStatus.CODES.httpStatusOf(status());
    }

    /** {@link RpcError#OVERFLOW} for a busy server, {@link RpcError#TIMEOUT} for a timeout, else null. */
    @Override
    public RpcError statusError() {
        int status = status();
        if (status == BoltStatus.SERVER_THREADPOOL_BUSY.code()) {
            return RpcError.OVERFLOW;
        }
        return status == BoltStatus.TIMEOUT.code() ? RpcError.TIMEOUT : null;
    }

    /** The frame's {@link BoltDialect}, packed by {@link BoltDialect#packed()}. */
    @Override
    public int replyForm() {
        return dialect().packed();
    }

    /** {@code BOLT/1} or {@code BOLT/2}. */
    @Override
    public String protocolName() {
        return layout.protocolCode == BoltProtocol.PROTOCOL_V1 ? "BOLT/1" : "BOLT/2";
    }

    /** The class name bytes (US-ASCII in practice), a slice that is not retained. */
    public ByteBuf className() {
        return bytes.slice(base + layout.fixedLength, classLength());
    }

    /** The raw header map bytes, a slice that is not retained. */
    public ByteBuf header() {
        return bytes.slice(base + headerOffset(), headerLength());
    }

    /** The serialized body, a slice that is not retained. */
    public ByteBuf content() {
        return bytes.slice(base + headerOffset() + headerLength(), contentLength());
    }

    /**
     * The first value of a header, or {@code null}, found where it lies (the header map is checked
     * on the first lookup); from the parsed map once {@link #headers()} built it.
     *
     * @throws BoltCodecException when the header map is malformed
     */
    @Override
    public String header(String key) {
        return find(Unpooled.wrappedBuffer(key.getBytes(StandardCharsets.UTF_8)), key);
    }

    private String find(ByteBuf keyBytes, String key) {
        if (headers != null) {
            return headers.get(key);
        }
        int headerOffset = base + headerOffset();
        if (!headersChecked) {
            BoltHeaderMap.check(bytes, headerOffset, headerLength(), this);
            headersChecked = true;
        }
        return BoltHeaderMap.find(bytes, headerOffset, headerLength(), keyBytes);
    }

    /**
     * The header map, unmodifiable, parsed on first use; the first value wins for a repeated key.
     *
     * @throws BoltCodecException when the header map is malformed
     */
    public Map<String, String> headers() {
        if (headers == null) {
            headers = BoltHeaderMap.parse(bytes, base + headerOffset(), headerLength(), this);
        }
        return headers;
    }

    /**
     * The {@code service} header, {@code interface:version[:uniqueId]}, SOFARPC's routing key; or
     * {@code null}. Found on the first call and kept.
     */
    @Override
    public String service() {
        if (!serviceRead) {
            service = find(SERVICE_KEY, BoltProtocol.HEADER_SERVICE);
            serviceRead = true;
        }
        return service;
    }

    /** The {@code sofa_head_method_name} header, or {@code null}. Found on the first call and kept. */
    @Override
    public String method() {
        if (!methodRead) {
            method = find(METHOD_KEY, BoltProtocol.HEADER_METHOD_NAME);
            methodRead = true;
        }
        return method;
    }

    /** Requests and responses of either version carry a header map this frame can rewrite. */
    @Override
    public boolean headersRewritable() {
        return kind() == Kind.REQUEST || kind() == Kind.ONEWAY || kind() == Kind.RESPONSE;
    }

    /**
     * A copy of this frame with {@code changes} made to its header map (a null value removes the
     * key), the header length fixed and, for a v2 frame with a CRC, the CRC recomputed; class name and
     * content are copied as they are.
     *
     * @throws BoltCodecException when the header map is malformed or the new one is longer than
     *     Bolt's 16-bit header length holds
     */
    @Override
    public BoltFrame withHeaders(ByteBufAllocator alloc, Map<String, String> changes) {
        int headerIndex = base + headerOffset();
        int headerLength = headerLength();
        if (!headersChecked) {
            BoltHeaderMap.check(bytes, headerIndex, headerLength, this);
            headersChecked = true;
        }
        int contentLength = contentLength();
        ByteBuf out = alloc.buffer(length + BoltHeaderMap.encodedLength(changes));
        try {
            out.writeBytes(bytes, base, headerIndex - base);
            BoltHeaderMap.rewrite(bytes, headerIndex, headerLength, changes, out);
            int newHeaderLength = out.writerIndex() - (headerIndex - base);
            if (newHeaderLength > Short.MAX_VALUE) {
                throw new BoltCodecException("header map of " + newHeaderLength + " bytes after the change (expected: <= "
                        + Short.MAX_VALUE + ")", dialect(), (int) requestId(), kind().expectsResponse());
            }
            out.setShort(layout.headerLengthOffset, newHeaderLength);
            out.writeBytes(bytes, headerIndex + headerLength, contentLength);
            if (hasCrc()) {
                out.writeInt(BoltCrc.compute(out, 0, out.writerIndex()));
            }
            return new BoltFrame(out, layout, kind());
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    @Override
    public String toString() {
        if (refCnt() == 0) {
            return "BoltFrame(v" + layout.protocolCode + " " + kind() + ", released)";
        }
        return "BoltFrame(v" + layout.protocolCode + " " + kind() + " id=" + requestId() + " length=" + length + ")";
    }

    private static ByteBuf utf8Key(String key) {
        return Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(key.getBytes(StandardCharsets.UTF_8)).asReadOnly());
    }

    private int classLength() {
        return bytes.getShort(base + layout.classLengthOffset);
    }

    private int headerLength() {
        return bytes.getShort(base + layout.headerLengthOffset);
    }

    private int contentLength() {
        return bytes.getInt(base + layout.contentLengthOffset);
    }

    private int headerOffset() {
        return layout.fixedLength + classLength();
    }
}
