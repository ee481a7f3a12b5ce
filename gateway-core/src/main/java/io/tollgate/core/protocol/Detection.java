package io.tollgate.core.protocol;

/** What a protocol makes of a connection's first bytes. */
public enum Detection {
    /** The bytes are this protocol's. */
    MATCH,
    /** Too few bytes to tell; wait for more. */
    NEED_MORE,
    /** The bytes are not this protocol's. */
    NO_MATCH
}
