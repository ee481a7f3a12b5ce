package io.tollgate.protocols.bolt;

import io.netty.handler.codec.CorruptedFrameException;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A Bolt frame that cannot be decoded. It carries what could be read of the broken frame, so that
 * the handler above can answer {@link BoltStatus#CODEC_EXCEPTION} with the right request id and
 * dialect before it closes the connection.
 */
public final class BoltCodecException extends CorruptedFrameException {

    private final transient BoltDialect dialect;
    private final int requestId;
    private final boolean requestIdKnown;
    private final boolean expectsResponse;

    /** A broken frame of which not even the fixed header could be read. */
    BoltCodecException(String message) {
        super(message);
        this.dialect = null;
        this.requestId = 0;
        this.requestIdKnown = false;
        this.expectsResponse = false;
    }

    /** A broken frame whose fixed header was read: its dialect, id and whether it was a two-way request. */
    BoltCodecException(String message, BoltDialect dialect, int requestId, boolean expectsResponse) {
        super(message + " (request id " + requestId + ")");
        this.dialect = dialect;
        this.requestId = requestId;
        this.requestIdKnown = true;
        this.expectsResponse = expectsResponse;
    }

    /** The broken frame's request id, when its fixed header could be read. */
    public OptionalInt requestId() {
        return requestIdKnown ? OptionalInt.of(requestId) : OptionalInt.empty();
    }

    /** The broken frame's dialect, when its fixed header could be read. */
    public Optional<BoltDialect> dialect() {
        return Optional.ofNullable(dialect);
    }

    /** Whether the broken frame was a two-way request or heartbeat, whose sender waits for an answer. */
    public boolean expectsResponse() {
        return expectsResponse;
    }
}
