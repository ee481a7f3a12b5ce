package io.tollgate.protocols.hessian2;

/**
 * Which Hessian 2 grammar a peer speaks. The two agree on null, booleans, ints, most longs, 8-byte
 * doubles and short strings and binaries, and differ on containers, objects, dates and refs, so a
 * reader or writer must be told.
 */
public enum Hessian2Dialect {
    /** The Hessian 2.0 specification: Dubbo's hessian-lite, sofa-hessian 4. */
    FINAL,
    /** Caucho's Hessian 3.1 draft of 2.0: sofa-hessian 3.x, what SOFARPC 5 providers ship with. */
    DRAFT
}
