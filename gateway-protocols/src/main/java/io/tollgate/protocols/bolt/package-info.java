/**
 * SOFA Bolt (v1 and v2), codec layer only: the wire format ({@link io.tollgate.protocols.bolt.BoltProtocol}),
 * detection ({@link io.tollgate.protocols.bolt.BoltDetector}), frames as retained slices
 * ({@link io.tollgate.protocols.rpc.RpcFrameDecoder} with a {@link io.tollgate.protocols.bolt.BoltCodec}
 * emits {@link io.tollgate.protocols.bolt.BoltFrame}),
 * forwarding of those same bytes ({@link io.tollgate.protocols.rpc.RpcFrameEncoder}), gateway-made frames
 * ({@link io.tollgate.protocols.bolt.BoltResponses}, {@link io.tollgate.protocols.bolt.BoltHeartbeats}) and
 * the status mapping ({@link io.tollgate.protocols.bolt.BoltStatus}).
 *
 * <p>A frame's life: the decoder emits it with one reference; the proxy reads the route key through
 * {@link io.tollgate.protocols.bolt.BoltRouteRequest} (header map parsed lazily, body never read),
 * rewrites its request id in place for the upstream connection, and writes it through the encoder,
 * which passes the reference to the write. A frame that is not forwarded is released by whoever
 * holds it.
 */
package io.tollgate.protocols.bolt;
