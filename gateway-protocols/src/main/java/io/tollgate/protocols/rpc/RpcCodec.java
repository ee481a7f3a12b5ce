package io.tollgate.protocols.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.tollgate.core.protocol.Detection;
import io.tollgate.core.protocol.ProtocolDetector;

/**
 * Everything the RPC engine needs from one multiplexed protocol's wire format: detection, frame
 * boundaries, and the frames the gateway writes itself. One instance carries one set of limits and
 * is shared by every connection that uses them: implementations MUST be stateless and thread-safe.
 *
 * <p>Every method that returns a {@code ByteBuf} returns a new buffer from the given allocator,
 * owned by the caller, who writes it (the write releases it) or releases it.
 */
public interface RpcCodec extends ProtocolDetector {

    /** The protocol's registered name, as written in the configuration ({@code bolt}, {@code dubbo}). */
    @Override
    String protocol();

    /**
     * Looks at a connection's first bytes, readable in {@code in}, without consuming, retaining or
     * releasing anything.
     */
    @Override
    Detection detect(ByteBuf in);

    /**
     * Reads the frame starting at {@code in}'s reader index. When the whole frame is there, consumes
     * it and returns it as a retained slice owned by the caller; when it is not, consumes nothing and
     * returns null. Every length MUST be checked against the codec's limits as soon as the part
     * that declares it is readable, before the rest is awaited.
     *
     * @throws RpcCodecException when the frame is malformed or over a limit; the caller then
     *     discards everything the connection sends, since frame boundaries are lost
     */
    RpcFrame decode(ByteBuf in);

    /** The largest request id a frame of this protocol carries (ids of upstream connections wrap there). */
    long maxRequestId();

    /** A heartbeat with {@code requestId}, sent on an idle upstream connection to keep it and test it. */
    ByteBuf heartbeat(ByteBufAllocator alloc, long requestId);

    /**
     * The acknowledgement the gateway answers a client's heartbeat with: same id and form.
     *
     * @throws IllegalArgumentException when {@code heartbeat} is not a {@link RpcFrame.Kind#HEARTBEAT}
     */
    ByteBuf heartbeatAck(ByteBufAllocator alloc, RpcFrame heartbeat);

    /** Whether a heartbeat acknowledgement says the peer is healthy. */
    boolean healthy(RpcFrame heartbeatAck);

    /**
     * A response carrying the protocol's status for {@code error} and nothing else, with the caller's
     * {@code requestId}, in the form {@code replyForm} of the request (see {@link RpcFrame#replyForm()}).
     */
    ByteBuf errorReply(ByteBufAllocator alloc, int replyForm, long requestId, RpcError error);

    /** What the status {@link #errorReply} writes for {@code error} means in HTTP terms. */
    int httpStatus(RpcError error);
}
