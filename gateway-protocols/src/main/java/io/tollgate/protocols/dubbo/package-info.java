/**
 * Dubbo (the "dubbo" protocol of Dubbo 2.x and 3.x), codec layer only: the wire format
 * ({@link io.tollgate.protocols.dubbo.DubboProtocol}), detection ({@link io.tollgate.protocols.dubbo.DubboDetector}),
 * the {@link io.tollgate.protocols.rpc.RpcCodec} the RPC engine drives ({@link io.tollgate.protocols.dubbo.DubboCodec}),
 * frames as retained slices ({@link io.tollgate.protocols.dubbo.DubboFrame}), gateway-made frames
 * ({@link io.tollgate.protocols.dubbo.DubboResponses}, {@link io.tollgate.protocols.dubbo.DubboHeartbeats}) and
 * the status mapping ({@link io.tollgate.protocols.dubbo.DubboStatus}).
 *
 * <p>A frame's life: {@link io.tollgate.protocols.rpc.RpcFrameDecoder} emits it with one reference; the
 * engine reads the route key through the frame's routing view, a {@link io.tollgate.protocols.dubbo.DubboInvocation}
 * read from the hessian2 body once (the leading strings and the attachments; the arguments are
 * stepped over by a small hessian2 reader of our own, never decoded), rewrites the 64-bit request id
 * in place and writes the frame, whose bytes leave as they arrived.
 */
package io.tollgate.protocols.dubbo;
