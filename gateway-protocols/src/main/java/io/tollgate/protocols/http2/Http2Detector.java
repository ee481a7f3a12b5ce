package io.tollgate.protocols.http2;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.tollgate.core.protocol.Detection;
import io.tollgate.core.protocol.ProtocolDetector;

/**
 * Recognises h2c with prior knowledge by the 24-byte client connection preface
 * ({@code PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n}, RFC 9113 section 3.4). A shorter prefix of the preface
 * asks for more bytes; any byte that differs is no match, so detection costs at most 24 byte
 * comparisons per connection.
 */
public final class Http2Detector implements ProtocolDetector {

    private static final ByteBuf PREFACE = Http2CodecUtil.connectionPrefaceBuf();

    @Override
    public String protocol() {
        return "h2c";
    }

    @Override
    public Detection detect(ByteBuf in) {
        return Detection.ofPrefix(in, PREFACE);
    }
}
