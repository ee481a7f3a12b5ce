/**
 * HTTP/1.1 on the wire: detection, strictly configured Netty codecs, request-smuggling defences
 * and hop-by-hop header handling.
 *
 * <p>Downstream pipeline, in this order:
 * <pre>
 *   Http1Decoders.headGuard    raw head bytes: refuses obs-fold and leniently split request lines
 *   Http1Decoders.serverCodec  Netty HttpServerCodec: bytes to HttpRequest / HttpContent and back
 *   (proxy handler)            Http1RequestValidator.fromDecoderFailure on every object,
 *                              Http1RequestValidator.validate on every HttpRequest; on a Rejection
 *                              answer its status with Connection: close and close;
 *                              HopByHopHeaders.wantsClose, then HopByHopHeaders.strip, before forwarding
 * </pre>
 * Upstream: {@code Http1Decoders.clientCodec}, then the proxy's response handler, which strips
 * hop-by-hop headers and sets keep-alive for the client with {@code HopByHopHeaders.setKeepAlive}.
 */
package io.tollgate.protocols.http1;
