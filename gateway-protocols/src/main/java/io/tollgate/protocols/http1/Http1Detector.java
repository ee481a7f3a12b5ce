package io.tollgate.protocols.http1;

import io.netty.buffer.ByteBuf;
import io.tollgate.core.protocol.Detection;
import io.tollgate.core.protocol.ProtocolDetector;

/**
 * Recognises an HTTP/1.x connection by its first bytes: a method token of at most
 * {@value #MAX_METHOD_BYTES} token characters followed by one space.
 *
 * <p>The HTTP/2 connection preface ({@code PRI * HTTP/2.0}) is a valid token followed by a space,
 * so the {@code PRI} method is explicitly not HTTP/1: RFC 9113 section 3.4 reserves it for the
 * preface, and refusing it here lets h2c prior knowledge be detected by the HTTP/2 detector.
 * Bolt (first byte {@code 0x01} or {@code 0x02}), Dubbo ({@code 0xda}) and TLS ({@code 0x16})
 * start with bytes that are not token characters, so they never match.
 */
public final class Http1Detector implements ProtocolDetector {

    /** The longest method token accepted, long enough for every registered method. */
    static final int MAX_METHOD_BYTES = 16;

    private static final String H2_PREFACE_METHOD = "PRI";

    @Override
    public String protocol() {
        return "http1";
    }

    @Override
    public Detection detect(ByteBuf in) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        int limit = Math.min(readable, MAX_METHOD_BYTES + 1);
        for (int i = 0; i < limit; i++) {
            int b = in.getUnsignedByte(start + i);
            if (b == ' ') {
                return i == 0 || isH2PrefaceMethod(in, start, i) ? Detection.NO_MATCH : Detection.MATCH;
            }
            if (!Tokens.isTchar(b) || i == MAX_METHOD_BYTES) {
                return Detection.NO_MATCH;
            }
        }
        return Detection.NEED_MORE;
    }

    private static boolean isH2PrefaceMethod(ByteBuf in, int start, int length) {
        if (length != H2_PREFACE_METHOD.length()) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (in.getByte(start + i) != H2_PREFACE_METHOD.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
