package io.tollgate.protocols.dubbo;

import io.tollgate.protocols.rpc.RpcCodecException;

/**
 * A Dubbo frame that cannot be decoded (bad magic, a body length that is negative or over the
 * payload limit), or a request body the routing view cannot read. Once the magic and the whole
 * 16-byte header were read it carries the request id, the serialization id as reply form, and
 * whether the sender waits for an answer (a two-way request or heartbeat), so that the engine can
 * answer {@link DubboStatus#BAD_REQUEST} before it closes the connection; a bad magic carries none,
 * since the bytes are not Dubbo's.
 */
public final class DubboCodecException extends RpcCodecException {

    private static final long serialVersionUID = 1L;

    /** A broken frame of which not even the header could be read, or a broken hessian2 value. */
    DubboCodecException(String message) {
        super(message);
    }

    /** A broken frame whose header was read. */
    DubboCodecException(String message, long requestId, int serializationId, boolean expectsResponse) {
        super(message, requestId, serializationId, expectsResponse);
    }
}
