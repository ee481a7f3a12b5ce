/**
 * The contract of a multiplexed RPC protocol (MOSN's X-Protocol idea): what a protocol package
 * provides so that the gateway's one RPC engine can proxy it, and nothing more.
 *
 * <p>A protocol implements {@link io.tollgate.protocols.rpc.RpcCodec} (detection from the first
 * bytes, frame boundaries, gateway-made replies and heartbeats) and
 * {@link io.tollgate.protocols.rpc.RpcFrame} (one frame as a retained slice: its kind, its request
 * id read and rewritten in place, a lazy routing view, its status in HTTP terms), and registers an
 * {@link io.tollgate.protocols.rpc.RpcProtocol} with {@link java.util.ServiceLoader}. A frame class
 * extends {@link io.tollgate.protocols.rpc.SlicedRpcFrame}, which holds the retained slice and
 * counts references on it, and writes only its own fields. Everything
 * else (multiplexed upstream connections, id remapping, heartbeats both ways, retries, timeouts,
 * backpressure, call ending) is written once, in the engine, for every such protocol.
 *
 * <p>{@link io.tollgate.protocols.rpc.RpcFrameDecoder} and {@link io.tollgate.protocols.rpc.RpcFrameEncoder}
 * put a codec in a Netty pipeline; a protocol writes no handler of its own.
 */
package io.tollgate.protocols.rpc;
