package io.tollgate.protocols.dubbo;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.tollgate.protocols.rpc.SlicedRpcFrame;
import io.tollgate.protocols.rpc.RpcError;
import java.util.Map;

/**
 * One decoded Dubbo frame as a view over a single retained slice of its bytes: the header is read
 * where it lies, the request id is rewritten in place, and forwarding the frame sends the very bytes
 * that arrived.
 *
 * <p>Its kind comes from the flag alone (see {@link DubboProtocol}). The routing view
 * ({@link #service()}, {@link #method()}, {@link #header}, {@link #timeoutMillis()}) is the
 * {@link DubboInvocation} of a hessian2 or fastjson2 call (a request or oneway request that is not an
 * event), read from the body on first use and kept: the five leading strings, the arguments stepped
 * over without being decoded, the attachments. Only a hessian2 call's attachments can be rewritten.
 * Events, responses and bodies in any other serialization have no routing view: service, method
 * and headers are null and the timeout 0.
 *
 * <p>Ownership: {@link DubboCodec#decode} returns each frame with one reference, owned by the caller,
 * who MUST release it or pass it on. The slices {@link #bytes()} and {@link #body()} return are not
 * retained. Not thread-safe: a frame belongs to the event loop that decoded it.
 */
public final class DubboFrame extends SlicedRpcFrame {

    private DubboCallHead head;
    private DubboCodecException headError;
    private boolean headRead;
    private DubboInvocation invocation;

    /**
     * Wraps the readable bytes of {@code bytes}, one whole frame whose header the codec validated, and
     * takes over the caller's reference.
     */
    DubboFrame(ByteBuf bytes) {
        super(bytes, kindOf(bytes.getByte(bytes.readerIndex() + DubboProtocol.FLAG_OFFSET)),
                DubboProtocol.REQUEST_ID_OFFSET, Long.BYTES);
    }

    /** The kind() a frame with {@code flag} is; see the table in {@link DubboProtocol}. */
    static Kind kindOf(int flag) {
        boolean event = (flag & DubboProtocol.FLAG_EVENT) != 0;
        if ((flag & DubboProtocol.FLAG_REQUEST) == 0) {
            return event ? Kind.HEARTBEAT_ACK : Kind.RESPONSE;
        }
        if ((flag & DubboProtocol.FLAG_TWO_WAY) == 0) {
            return Kind.ONEWAY;
        }
        return event ? Kind.HEARTBEAT : Kind.REQUEST;
    }

    /** The flag byte: request, two-way and event bits and the serialization id. */
    public byte flag() {
        return bytes.getByte(base + DubboProtocol.FLAG_OFFSET);
    }

    /** The serialization id of the body, {@link DubboProtocol#SERIALIZATION_HESSIAN2} usually. */
    public int serializationId() {
        return flag() & DubboProtocol.SERIALIZATION_MASK;
    }

    /** Whether this is an event (heartbeat, readonly, writeable) rather than a call or its response. */
    public boolean isEvent() {
        return (flag() & DubboProtocol.FLAG_EVENT) != 0;
    }

    /**
     * The response status, an unsigned byte; see {@link DubboStatus}.
     *
     * @throws IllegalStateException when this is a request
     */
    public int status() {
        requireResponse("status");
        return bytes.getUnsignedByte(base + DubboProtocol.STATUS_OFFSET);
    }

    /** The body's length in bytes, as the header declares it. */
    public int bodyLength() {
        return length - DubboProtocol.HEADER_LENGTH;
    }

    /** The body, a slice that is not retained. */
    public ByteBuf body() {
        return bytes.slice(base + DubboProtocol.HEADER_LENGTH, bodyLength());
    }

    /**
     * The {@code timeout} attachment, in milliseconds; 0 when there is none, it is not a decimal
     * number, or this frame has no routing view. A malformed body also reads as 0, since this method
     * throws nothing: the routing view's other methods raise the error.
     */
    @Override
    public long timeoutMillis() {
        if (!hasRoutingView() && !isFastjson2Call()) {
            return 0;
        }
        String timeout;
        try {
            timeout = isFastjson2Call() ? fastjson2().attachment(DubboProtocol.ATTACHMENT_TIMEOUT)
                    : head().attachment(DubboProtocol.ATTACHMENT_TIMEOUT);
        } catch (DubboCodecException e) {
            return 0;
        }
        if (timeout == null) {
            return 0;
        }
        try {
            return Long.parseLong(timeout.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** @throws IllegalStateException when this is a request */
    @Override
    public int httpStatus() {
        return DubboStatus.CODES.httpStatusOf(status());
    }

    /**
     * {@link RpcError#OVERFLOW} for {@link DubboStatus#SERVER_THREADPOOL_EXHAUSTED_ERROR},
     * {@link RpcError#TIMEOUT} for {@link DubboStatus#SERVER_TIMEOUT} and for
     * {@link DubboStatus#CLIENT_TIMEOUT} (which MOSN answers its own timeouts with), else null.
     *
     * @throws IllegalStateException when this is a request
     */
    @Override
    public RpcError statusError() {
        int status = status();
        if (status == DubboStatus.SERVER_THREADPOOL_EXHAUSTED_ERROR.code()) {
            return RpcError.OVERFLOW;
        }
        if (status == DubboStatus.SERVER_TIMEOUT.code() || status == DubboStatus.CLIENT_TIMEOUT.code()) {
            return RpcError.TIMEOUT;
        }
        return null;
    }

    /** The serialization id; see {@link DubboCodec#errorReply} for what it changes. */
    @Override
    public int replyForm() {
        return serializationId();
    }

    @Override
    public String protocolName() {
        return DubboProtocol.LOG_NAME;
    }

    /**
     * The call's routing fields, read from the hessian2 body on first use and kept; null when this
     * frame has no routing view (an event, a response, another serialization).
     *
     * @throws DubboCodecException when the body is malformed, on this call and every later one
     */
    public DubboInvocation invocation() {
        if (isFastjson2Call()) {
            return fastjson2();
        }
        DubboCallHead call = head();
        if (invocation == null && call != null) {
            try {
                invocation = call.invocation();
            } catch (DubboCodecException e) {
                throw bodyError(e);
            }
        }
        return invocation;
    }

    /**
     * What routing reads on every request: the body's leading fields, read on first use and kept,
     * with the attachments left where they lie for lookups; null when this frame has no routing view.
     *
     * @throws DubboCodecException when the body is malformed, on this call and every later one
     */
    private DubboCallHead head() {
        if (!headRead) {
            headRead = true;
            if (hasRoutingView()) {
                try {
                    head = DubboInvocationReader.readHead(bytes, base + DubboProtocol.HEADER_LENGTH, bodyLength());
                } catch (DubboCodecException e) {
                    headError = bodyError(e);
                }
            }
        }
        if (headError != null) {
            throw headError;
        }
        return head;
    }

    /**
     * A fastjson2 call's routing view, read whole on first use and kept.
     *
     * @throws DubboCodecException when the body is malformed, on this call and every later one
     */
    private DubboInvocation fastjson2() {
        if (invocation == null && headError == null) {
            try {
                invocation = Fastjson2InvocationReader.read(bytes, base + DubboProtocol.HEADER_LENGTH, bodyLength());
            } catch (DubboCodecException e) {
                headError = bodyError(e);
            }
        }
        if (headError != null) {
            throw headError;
        }
        return invocation;
    }

    private DubboCodecException bodyError(DubboCodecException e) {
        return new DubboCodecException("request body: " + e.getMessage(), requestId(), serializationId(),
                kind().expectsResponse());
    }

    /** The {@code interface} attachment, else the service path; see {@link DubboInvocation#service()}. */
    @Override
    public String service() {
        if (isFastjson2Call()) {
            return fastjson2().service();
        }
        DubboCallHead call = head();
        return call == null ? null : call.service();
    }

    @Override
    public String method() {
        if (isFastjson2Call()) {
            return fastjson2().method();
        }
        DubboCallHead call = head();
        return call == null ? null : call.method();
    }

    /**
     * An attachment, with {@code version}, {@code path} and {@code dubbo} falling back to the body's
     * fields as the provider does; see {@link DubboInvocation#attachment}.
     */
    @Override
    public String header(String name) {
        requireNonNull(name, "name");
        if (isFastjson2Call()) {
            return fastjson2().attachment(name);
        }
        DubboCallHead call = head();
        try {
            return call == null ? null : call.attachment(name);
        } catch (DubboCodecException e) {
            throw bodyError(e);
        }
    }

    /**
     * The string attachments, unmodifiable; empty when this frame has no routing view.
     *
     * @throws DubboCodecException when the request body is malformed
     */
    public Map<String, String> attachments() {
        DubboInvocation call = invocation();
        return call == null ? Map.of() : call.attachments();
    }

    /** Hessian2 requests, whose attachments this frame can rewrite. */
    @Override
    public boolean headersRewritable() {
        return hasRoutingView();
    }

    /**
     * A copy of this request with {@code changes} made to its attachments: string (or null) entries
     * of the keys changed left out, each change whose value is not null appended at the end of the
     * map, a map added when the body has none; the body length fixed. Everything before the
     * attachments (versions, method, descriptor, arguments) is copied as it is.
     *
     * @throws DubboCodecException when the body is malformed
     */
    @Override
    public DubboFrame withHeaders(ByteBufAllocator alloc, Map<String, String> changes) {
        if (!hasRoutingView()) {
            throw new UnsupportedOperationException(this + " has no attachments to change");
        }
        DubboCallHead call = head();
        int attachmentsAt = call.attachmentsAt();
        int end = base + length;
        int[] layout = attachmentsAt < 0 ? null : call.attachmentsLayout(changes.keySet().toArray(String[]::new));
        ByteBuf out = alloc.buffer(length + 16 + 64 * changes.size());
        try {
            if (layout == null) {
                int mapAt = attachmentsAt < 0 ? end : attachmentsAt;
                out.writeBytes(bytes, base, mapAt - base);
                out.writeByte('H');
                appendChanges(out, changes);
                out.writeByte('Z');
                int after = attachmentsAt < 0 ? end : attachmentsAt + 1;
                out.writeBytes(bytes, after, end - after);
            } else {
                int at = base;
                for (int i = 2; i < layout.length; i += 2) {
                    out.writeBytes(bytes, at, layout[i] - at);
                    at = layout[i + 1];
                }
                out.writeBytes(bytes, at, layout[1] - at);
                appendChanges(out, changes);
                out.writeBytes(bytes, layout[1], end - layout[1]);
            }
            out.setInt(DubboProtocol.BODY_LENGTH_OFFSET, out.writerIndex() - DubboProtocol.HEADER_LENGTH);
            return new DubboFrame(out);
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /** Writes the changes that set a value as hessian2 map entries. */
    private static void appendChanges(ByteBuf out, Map<String, String> changes) {
        for (Map.Entry<String, String> change : changes.entrySet()) {
            if (change.getValue() != null) {
                Hessian2Writer.writeString(out, change.getKey());
                Hessian2Writer.writeString(out, change.getValue());
            }
        }
    }

    private boolean hasRoutingView() {
        return isCall() && serializationId() == DubboProtocol.SERIALIZATION_HESSIAN2;
    }

    private boolean isFastjson2Call() {
        return isCall() && serializationId() == DubboProtocol.SERIALIZATION_FASTJSON2;
    }

    private boolean isCall() {
        return (kind() == Kind.REQUEST || kind() == Kind.ONEWAY) && !isEvent();
    }

    @Override
    public String toString() {
        if (refCnt() == 0) {
            return "DubboFrame(" + kind() + ", released)";
        }
        return "DubboFrame(" + kind() + " id=" + requestId() + " flag=0x" + Integer.toHexString(flag() & 0xff)
                + " length=" + length + ")";
    }
}
