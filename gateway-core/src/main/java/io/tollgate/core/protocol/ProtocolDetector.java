package io.tollgate.core.protocol;

import io.netty.buffer.ByteBuf;

/**
 * Recognises one protocol from the first bytes of a connection, so that one listening port can
 * serve several protocols.
 *
 * <p>Implementations MUST peek relative to {@code readerIndex} and MUST NOT consume, retain or
 * release the buffer.
 */
public interface ProtocolDetector {

    /** The protocol's registered name, as written in the configuration ({@code http1}, {@code bolt}). */
    String protocol();

    /** Looks at the bytes readable in {@code in} without consuming them. */
    Detection detect(ByteBuf in);

    /**
     * Whether this protocol answers a connection whose first bytes no protocol of its listener
     * claimed (each said {@link Detection#NO_MATCH}), with the error its protocol has for a broken
     * opening, rather than the connection being closed without a word: so when the bytes began as
     * this protocol's opening does and then differed. None does by default.
     */
    default boolean answersUnclaimed(ByteBuf in) {
        return false;
    }
}
