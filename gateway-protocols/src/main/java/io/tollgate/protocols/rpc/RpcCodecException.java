package io.tollgate.protocols.rpc;

import io.netty.handler.codec.CorruptedFrameException;
import java.util.OptionalLong;

/**
 * A frame that cannot be decoded. It carries what could be read of the broken frame, so that the
 * engine can answer {@link RpcError#MALFORMED} with the right request id and form before it closes
 * the connection, when the sender waits for an answer.
 */
public class RpcCodecException extends CorruptedFrameException {

    private static final long serialVersionUID = 1L;

    private final long requestId;
    private final boolean requestIdKnown;
    private final boolean expectsResponse;
    private final int replyForm;

    /** A broken frame of which not even the request id could be read. */
    public RpcCodecException(String message) {
        super(message);
        this.requestId = 0;
        this.requestIdKnown = false;
        this.expectsResponse = false;
        this.replyForm = 0;
    }

    /**
     * A broken frame whose fixed header was read.
     *
     * @param replyForm as {@link RpcFrame#replyForm()} of the frame, for the answer
     * @param expectsResponse whether its sender waits for an answer
     */
    public RpcCodecException(String message, long requestId, int replyForm, boolean expectsResponse) {
        super(message + " (request id " + requestId + ")");
        this.requestId = requestId;
        this.requestIdKnown = true;
        this.expectsResponse = expectsResponse;
        this.replyForm = replyForm;
    }

    /** The broken frame's request id, when its fixed header could be read. */
    public OptionalLong rpcRequestId() {
        return requestIdKnown ? OptionalLong.of(requestId) : OptionalLong.empty();
    }

    /** How an answer to the broken frame is written; meaningful only when its id is known. */
    public int replyForm() {
        return replyForm;
    }

    /** Whether the broken frame's sender waits for an answer. */
    public boolean expectsResponse() {
        return expectsResponse;
    }
}
