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
}
