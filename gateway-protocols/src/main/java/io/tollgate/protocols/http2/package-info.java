/**
 * HTTP/2 as the gateway speaks it: h2c detection, Netty frame codecs built with explicit limits
 * and protections, and the little of gRPC a proxy must know (content type, {@code grpc-timeout},
 * status codes for gateway-made errors).
 *
 * <p>Messages cross the proxy as Netty {@code HttpObject}s: each HTTP/2 stream is a child channel
 * whose frames {@code Http2StreamFrameToHttpObjectCodec} converts, so the HTTP/1 proxy engine
 * serves HTTP/2 streams unchanged. {@link Http2ExtensionHeaders} removes what that conversion adds.
 */
package io.tollgate.protocols.http2;
