package io.tollgate.protocols.dubbo;

import io.netty.buffer.ByteBuf;
import io.tollgate.protocols.hessian2.Hessian2Dialect;
import io.tollgate.protocols.hessian2.Hessian2ValueWriter;

/**
 * Writes the only hessian2 values the gateway makes itself in Dubbo frames, a string (the message of
 * an error reply) and null (the body of heartbeats), as hessian's Java writer does, so that every
 * Dubbo consumer reads them back.
 */
final class Hessian2Writer {

    private Hessian2Writer() {
    }

    /** Appends {@code value} at the writer index of {@code out}: null as {@code N}, a string as {@link Hessian2ValueWriter#writeString} cuts it. */
    static void writeString(ByteBuf out, String value) {
        Hessian2ValueWriter.writeString(out, value, Hessian2Dialect.FINAL);
    }
}
