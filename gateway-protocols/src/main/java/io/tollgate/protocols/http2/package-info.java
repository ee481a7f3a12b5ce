/**
 * HTTP/2 as the gateway speaks it: h2c detection, the codec halves of Netty's connection handler
 * built with explicit limits and protections for both sides, and the little of gRPC a proxy must
 * know (content type, {@code grpc-timeout}, status codes for gateway-made errors).
 *
 * <p>Messages cross the proxy as Netty {@code HttpObject}s: each HTTP/2 stream, downstream and
 * upstream, is a light object of its connection's handler (no child channel) that converts its
 * frames with {@code HttpConversionUtil}, so the HTTP/1 proxy engine serves HTTP/2 streams
 * unchanged. {@link Http2ExtensionHeaders} removes what that conversion adds.
 */
package io.tollgate.protocols.http2;
