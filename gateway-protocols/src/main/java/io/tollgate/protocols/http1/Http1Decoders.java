package io.tollgate.protocols.http1;

import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;

/** Builds Netty's HTTP/1 codecs configured as strictly as the gateway needs. */
public final class Http1Decoders {

    private Http1Decoders() {
    }

    public static HttpServerCodec serverCodec(int maxInitialLineBytes, int maxHeaderBytes) {
        return new HttpServerCodec(new HttpDecoderConfig()
                .setMaxInitialLineLength(maxInitialLineBytes)
                .setMaxHeaderSize(maxHeaderBytes)
                .setMaxChunkSize(65536));
    }

    public static HttpClientCodec clientCodec(int maxInitialLineBytes, int maxHeaderBytes) {
        return new HttpClientCodec(new HttpDecoderConfig()
                .setMaxInitialLineLength(maxInitialLineBytes)
                .setMaxHeaderSize(maxHeaderBytes)
                .setMaxChunkSize(65536), HttpClientCodec.DEFAULT_PARSE_HTTP_AFTER_CONNECT_REQUEST,
                HttpClientCodec.DEFAULT_FAIL_ON_MISSING_RESPONSE);
    }
}
