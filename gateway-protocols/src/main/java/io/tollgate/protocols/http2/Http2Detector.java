package io.tollgate.protocols.http2;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.tollgate.core.protocol.Detection;
import io.tollgate.core.protocol.ProtocolDetector;

/**
 * Recognises h2c with prior knowledge by the 24-byte client connection preface
 * ({@code PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n}, RFC 9113 section 3.4). A shorter prefix of the preface
 * asks for more bytes; a byte that differs within the first four ({@code "PRI "}) is no match,
 * one that differs after them a match, so that the HTTP/2 codec answers the broken preface with
 * GOAWAY PROTOCOL_ERROR as RFC 9113 section 3.4 asks. A connection that begins like the preface
 * and differs within those four bytes in a way no other protocol of the listener claims either
 * ({@code "PRI\r\n"}, {@code "PR\0"}) is answered the same way ({@link #answersUnclaimed}).
 * Detection costs at most 28 byte comparisons per connection.
 */
public final class Http2Detector implements ProtocolDetector {

    private static final ByteBuf PREFACE = Http2CodecUtil.connectionPrefaceBuf();
    /**
     * {@code "PRI "}: a connection starting so is HTTP/2 even when the rest of its preface is
     * wrong (HTTP/1 reserves the method for it), so that the HTTP/2 codec refuses it with GOAWAY.
     */
    private static final ByteBuf PREFACE_METHOD = PREFACE.slice(PREFACE.readerIndex(), 4).asReadOnly();

    @Override
    public String protocol() {
        return "h2c";
    }

    @Override
    public Detection detect(ByteBuf in) {
        Detection detection = Detection.ofPrefix(in, PREFACE);
        return detection == Detection.NO_MATCH && Detection.ofPrefix(in, PREFACE_METHOD) == Detection.MATCH
                ? Detection.MATCH : detection;
    }

    /** Bytes that no protocol claimed and that begin with the preface's first byte are a broken preface. */
    @Override
    public boolean answersUnclaimed(ByteBuf in) {
        return in.isReadable() && in.getByte(in.readerIndex()) == PREFACE.getByte(PREFACE.readerIndex());
    }
}
