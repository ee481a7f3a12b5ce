package io.tollgate.protocols.http1;

import io.netty.buffer.ByteBuf;
import io.tollgate.core.protocol.Detection;
import io.tollgate.core.protocol.ProtocolDetector;

/** Recognises HTTP/1.x from a method token followed by a space. */
public final class Http1Detector implements ProtocolDetector {

    @Override
    public String protocol() {
        return "http1";
    }

    @Override
    public Detection detect(ByteBuf in) {
        int n = Math.min(in.readableBytes(), 17);
        for (int i = 0; i < n; i++) {
            byte b = in.getByte(in.readerIndex() + i);
            if (b == ' ') {
                return i > 0 ? Detection.MATCH : Detection.NO_MATCH;
            }
            if (b < 'A' || b > 'Z') {
                return Detection.NO_MATCH;
            }
        }
        return n < 17 ? Detection.NEED_MORE : Detection.NO_MATCH;
    }
}
