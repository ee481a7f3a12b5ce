package io.tollgate.protocols.bolt;

import io.tollgate.protocols.rpc.RpcCodecException;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A Bolt frame that cannot be decoded. It carries what could be read of the broken frame, so that
 * the engine can answer {@link BoltStatus#CODEC_EXCEPTION} with the right request id and dialect
 * before it closes the connection.
 */
public final class BoltCodecException extends RpcCodecException {

    private static final long serialVersionUID = 1L;

    /** A broken frame of which not even the fixed header could be read. */
    BoltCodecException(String message) {
        super(message);
    }

    /** A broken frame whose fixed header was read: its dialect, id and whether it was a two-way request. */
    BoltCodecException(String message, BoltDialect dialect, int requestId, boolean expectsResponse) {
        super(message, requestId, dialect.packed(), expectsResponse);
    }

    /** The broken frame's request id, when its fixed header could be read. */
    public OptionalInt requestId() {
        return rpcRequestId().isPresent() ? OptionalInt.of((int) rpcRequestId().getAsLong()) : OptionalInt.empty();
    }

    /** The broken frame's dialect, when its fixed header could be read. */
    public Optional<BoltDialect> dialect() {
        return rpcRequestId().isPresent() ? Optional.of(BoltDialect.unpack(replyForm())) : Optional.empty();
    }
}
