/**
 * LPP, a small length-prefixed request/response protocol, as a gateway plug-in written against the
 * public SPI alone ({@code io.tollgate.protocols.rpc}, with what it names of gateway-core, and
 * Netty's buffers): the example {@code docs/extending.md} walks through.
 *
 * <p>{@link io.tollgate.examples.lpp.LppProtocol} draws the wire format;
 * {@link io.tollgate.examples.lpp.LppCodec} and {@link io.tollgate.examples.lpp.LppFrame} are what
 * the RPC engine drives; {@link io.tollgate.examples.lpp.LppRpcProtocol} is what the gateway finds
 * by {@link java.util.ServiceLoader}. Multiplexing, request id remapping, heartbeats, routing,
 * retries, timeouts, circuit breakers, backpressure, metrics and the access log come from the
 * engine.
 */
package io.tollgate.examples.lpp;
