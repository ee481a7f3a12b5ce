package io.tollgate.examples.lpp;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.netty.buffer.ByteBuf;
import io.tollgate.protocols.rpc.RpcError;
import io.tollgate.protocols.rpc.SlicedRpcFrame;

/**
 * One decoded LPP frame, what the RPC engine routes and forwards: a view over a single retained
 * slice of its bytes, whose fields are read where they lie (see {@link LppProtocol} for the layout).
 * The request id is rewritten in place, so a forwarded frame leaves as the bytes that arrived.
 *
 * <p>The routing view is the service and method names, decoded from UTF-8 on first use and kept;
 * LPP has no headers and no timeout field, and the body is never read.
 *
 * <p>Ownership: {@link LppCodec#decode} returns each frame with one reference, owned by the caller,
 * who MUST release it or pass it on. The buffers {@link #bytes()} and {@link #body()} return are
 * not retained. Not thread-safe: a frame belongs to the event loop that decoded it.
 */
public final class LppFrame extends SlicedRpcFrame {

    private String service;
    private String method;

    /**
     * Wraps the readable bytes of {@code bytes}, one whole frame whose lengths the codec checked, and
     * takes over the caller's reference.
     */
    LppFrame(ByteBuf bytes, Kind kind) {
        super(bytes, kind, LppProtocol.REQUEST_ID_OFFSET, Long.BYTES);
    }

    /** The body, a slice that is not retained. */
    public ByteBuf body() {
        int bodyLengthAt = methodOffset() + methodLength();
        return bytes.slice(base + bodyLengthAt + 4, bytes.getInt(base + bodyLengthAt));
    }

    /**
     * The status byte; see {@link LppStatus}.
     *
     * @throws IllegalStateException when this is a request or heartbeat, whose status means nothing
     */
    public int status() {
        requireResponse("status");
        return bytes.getUnsignedByte(base + LppProtocol.STATUS_OFFSET);
    }

    /** 0: LPP requests carry no timeout, so the route's timeout alone bounds a call. */
    @Override
    public long timeoutMillis() {
        return 0;
    }

    @Override
    public int httpStatus() {
        return LppStatus.httpStatusOf(status());
    }

    @Override
    public RpcError statusError() {
        return LppStatus.errorOf(status());
    }

    /** 0: LPP has one version, and every reply is written in it. */
    @Override
    public int replyForm() {
        return 0;
    }

    @Override
    public String protocolName() {
        return LppProtocol.LOG_NAME;
    }

    /** The service name, or null when it is empty. */
    @Override
    public String service() {
        if (service == null) {
            service = bytes.toString(base + LppProtocol.SERVICE_OFFSET, serviceLength(), UTF_8);
        }
        return service.isEmpty() ? null : service;
    }

    /** The method name, or null when it is empty. */
    @Override
    public String method() {
        if (method == null) {
            method = bytes.toString(base + methodOffset(), methodLength(), UTF_8);
        }
        return method.isEmpty() ? null : method;
    }

    /** Always null: LPP frames have no headers. */
    @Override
    public String header(String name) {
        return null;
    }

    private int serviceLength() {
        return bytes.getUnsignedShort(base + LppProtocol.SERVICE_LENGTH_OFFSET);
    }

    private int methodOffset() {
        return LppProtocol.SERVICE_OFFSET + serviceLength() + 2;
    }

    private int methodLength() {
        return bytes.getUnsignedShort(base + methodOffset() - 2);
    }

    @Override
    public String toString() {
        if (refCnt() == 0) {
            return "LppFrame(" + kind() + ", released)";
        }
        return "LppFrame(" + kind() + " id=" + requestId() + " length=" + length + ")";
    }
}
