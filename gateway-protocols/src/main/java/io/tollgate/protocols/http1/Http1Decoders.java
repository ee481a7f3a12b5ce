package io.tollgate.protocols.http1;

import io.netty.channel.ChannelHandler;
import io.netty.channel.CombinedChannelDuplexHandler;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;

/**
 * Builds the HTTP/1.1 codecs, their decoders Netty's configured as strictly as Netty allows, so
 * that every proxy pipeline decodes with the same rules; requests to upstreams are encoded by our
 * own {@link UpstreamRequestEncoder}.
 *
 * <p>Downstream pipeline order: {@link #headGuard} then {@link #serverCodec} then the handler
 * that calls {@link Http1RequestValidator#fromDecoderFailure} and {@link Http1RequestValidator#validate}
 * on every decoded request. Upstream: {@link #clientCodec}. Each call returns a new handler: none
 * is sharable.
 *
 * <table>
 *   <caption>Decoder settings</caption>
 *   <tr><th>setting</th><th>value</th><th>why</th></tr>
 *   <tr><td>max initial line</td><td>caller's</td><td>{@code TooLongHttpLineException}, answered 414</td></tr>
 *   <tr><td>max header block</td><td>caller's</td><td>{@code TooLongHttpHeaderException}, answered 431</td></tr>
 *   <tr><td>max chunk</td><td>{@value #MAX_CHUNK_BYTES}</td><td>bodies stream as slices of at most this</td></tr>
 *   <tr><td>strict line parsing</td><td>on</td><td>bare LF as a line end fails the message</td></tr>
 *   <tr><td>header validation</td><td>on</td><td>non-token names (also a space before the colon)
 *       and CTLs other than HTAB in values fail the message</td></tr>
 *   <tr><td>duplicate Content-Length</td><td>refused</td><td>several lines or a list fail the message,
 *       in HTTP/1.0 too (see {@link SingleContentLengthHeadersFactory})</td></tr>
 *   <tr><td>RFC 9112 Transfer-Encoding</td><td>on</td><td>Content-Length with Transfer-Encoding fails the
 *       message instead of being dropped silently</td></tr>
 * </table>
 *
 * <p>What Netty 4.2.18's decoder itself fails (each a failed {@code DecoderResult} whose cause is an
 * {@code IllegalArgumentException} unless named): both Content-Length and Transfer-Encoding
 * ({@code ContentLengthNotAllowedException}); several or non-numeric, signed, empty or overflowing
 * Content-Length ({@code NumberFormatException} for overflow); Transfer-Encoding in HTTP/1.0;
 * a request whose last transfer coding is not {@code chunked}, or with {@code chunked} twice;
 * whitespace between field name and colon; invalid name or value octets; bare LF; a malformed
 * request line or version; a bad chunk size or chunk end. What it silently fixes or accepts, and
 * who catches it: obs-fold is merged and the request line is split on any whitespace, HTAB, VT, FF
 * and bare CR included ({@link RequestHeadGuard}); a second HTTP/1.0 Content-Length is
 * dropped ({@link SingleContentLengthHeadersFactory}); {@code gzip, chunked}, {@code Chunked},
 * missing or repeated Host and any request-target are accepted ({@link Http1RequestValidator}).
 */
public final class Http1Decoders {

    /** Largest body slice the decoders emit. */
    static final int MAX_CHUNK_BYTES = 64 * 1024;

    private Http1Decoders() {
    }

    /** The downstream codec: decodes requests, encodes responses. */
    public static HttpServerCodec serverCodec(int maxInitialLineBytes, int maxHeaderBytes) {
        return new HttpServerCodec(strictConfig(maxInitialLineBytes, maxHeaderBytes));
    }

    /**
     * The handler that MUST sit directly before {@link #serverCodec}, with the same limits, so that a
     * request head with obs-fold or a leniently split request line is refused instead of repaired.
     * Remove it together with the codec.
     */
    public static ChannelHandler headGuard(int maxInitialLineBytes, int maxHeaderBytes) {
        return new RequestHeadGuard(strictConfig(maxInitialLineBytes, maxHeaderBytes));
    }

    /**
     * Whether a {@link #headGuard} stands between two requests: the codec after it then holds no
     * byte of a request either, since the guard forwards only what a request head parser consumed.
     */
    public static boolean betweenRequests(ChannelHandler headGuard) {
        return headGuard instanceof RequestHeadGuard guard && guard.betweenRequests();
    }

    /**
     * The upstream codec: encodes requests ({@link UpstreamRequestEncoder}), decodes responses
     * ({@link UpstreamResponseDecoder}). It fails a response that is still owed when the upstream
     * closes, and does not parse HTTP after a CONNECT.
     */
    public static ChannelHandler clientCodec(int maxInitialLineBytes, int maxHeaderBytes) {
        OutstandingRequests outstanding = new OutstandingRequests();
        return new CombinedChannelDuplexHandler<>(
                new UpstreamResponseDecoder(strictConfig(maxInitialLineBytes, maxHeaderBytes), outstanding),
                new UpstreamRequestEncoder(outstanding));
    }

    private static HttpDecoderConfig strictConfig(int maxInitialLineBytes, int maxHeaderBytes) {
        if (maxInitialLineBytes <= 0) {
            throw new IllegalArgumentException(
                    "maxInitialLineBytes: " + maxInitialLineBytes + " (expected: > 0)");
        }
        if (maxHeaderBytes <= 0) {
            throw new IllegalArgumentException("maxHeaderBytes: " + maxHeaderBytes + " (expected: > 0)");
        }
        // setValidateHeaders replaces the headers factory, so the factory is set after it.
        return new HttpDecoderConfig()
                .setMaxInitialLineLength(maxInitialLineBytes)
                .setMaxHeaderSize(maxHeaderBytes)
                .setMaxChunkSize(MAX_CHUNK_BYTES)
                .setChunkedSupported(true)
                .setAllowPartialChunks(true)
                .setStrictLineParsing(true)
                .setUseRfc9112TransferEncoding(true)
                .setAllowDuplicateContentLengths(false)
                .setValidateHeaders(true)
                .setHeadersFactory(SingleContentLengthHeadersFactory.INSTANCE);
    }
}
