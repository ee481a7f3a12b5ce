/**
 * Hessian 2 values read and written whole, with no Java class of the service on the gateway's class
 * path: what the HTTP-to-RPC calls need to write a call's arguments and read its answer. The Dubbo
 * package's own reader stays the routing view's skipper; this one builds values.
 *
 * <p>Two dialects: {@link io.tollgate.protocols.hessian2.Hessian2Dialect#FINAL}, the Hessian 2.0
 * specification as Dubbo's hessian-lite writes it, and {@link io.tollgate.protocols.hessian2.Hessian2Dialect#DRAFT},
 * Caucho's 3.1 draft that sofa-hessian 3 still speaks (lowercase end markers, {@code O}/{@code o}
 * class definitions and instances, {@code d} dates). A value read is one of: {@code null},
 * {@link java.lang.Boolean}, {@link java.lang.Integer}, {@link java.lang.Long}, {@link java.lang.Double},
 * {@link java.lang.String}, {@code byte[]}, {@link java.time.Instant} (a date), {@link java.util.List},
 * {@link java.util.Map} or {@link io.tollgate.protocols.hessian2.Hessian2Object}.
 */
package io.tollgate.protocols.hessian2;
