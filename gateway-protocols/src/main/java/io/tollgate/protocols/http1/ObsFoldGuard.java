package io.tollgate.protocols.http1;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ByteProcessor;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;

/**
 * Rejects obs-fold (a header line that starts with SP or HTAB) in request heads, which Netty's
 * decoder would otherwise merge into the previous field value.
 *
 * <p>Netty 4.2 folds such a line into the previous value (allowed by RFC 9112 section 5.2, but a
 * front proxy that reads the line differently would then see other headers than we do), and
 * {@code HttpServerCodec} is final, so the merge cannot be intercepted inside the codec. This
 * handler sits just before the codec and runs a second {@link HttpRequestDecoder} with the same
 * configuration only to know where each request head begins and ends; it forwards exactly the
 * bytes that decoder consumed, so the codec sees the same byte stream, only re-sliced. The head
 * bytes are scanned before they are forwarded: on a line that starts with SP or HTAB nothing more
 * is forwarded and a request with a failed {@link DecoderResult} is passed on instead (it travels
 * through the codec untouched, because a decoder passes on what is not a {@code ByteBuf}), so the
 * handler after the codec answers 400 like any decoding failure.
 *
 * <p>The price is a second parse of every request head; body bytes are only sliced. Folds in
 * chunked trailers are not looked for: Netty replaces them with a space, as RFC 9112 allows.
 * Not sharable: it keeps per-connection parser state.
 */
final class ObsFoldGuard extends HttpRequestDecoder {

    private final List<Object> shadowOutput = new ArrayList<>(4);
    private final LineStartScanner scanner = new LineStartScanner();
    private boolean inHead = true;
    private boolean rejected;

    ObsFoldGuard(HttpDecoderConfig config) {
        super(config);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        if (rejected) {
            in.skipBytes(in.readableBytes());
            return;
        }
        int start = in.readerIndex();
        boolean wasInHead = inHead;
        boolean shadowFailed = runShadow(ctx, in);
        int consumed = in.readerIndex() - start;
        if (consumed == 0) {
            return;
        }
        if (wasInHead && !shadowFailed && scanner.findsFold(in, start, consumed)) {
            rejected = true;
            in.skipBytes(in.readableBytes());
            out.add(foldRejection());
            return;
        }
        out.add(in.retainedSlice(start, consumed));
    }

    /** Passes the end of the stream on as bytes only; the codec reports an unfinished message itself. */
    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        if (in.isReadable()) {
            decode(ctx, in, out);
        }
    }

    /** Decodes with the shadow parser, tracks head or body, and returns whether decoding failed. */
    private boolean runShadow(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        boolean failed = false;
        try {
            super.decode(ctx, in, shadowOutput);
            for (Object decoded : shadowOutput) {
                failed |= ((HttpObject) decoded).decoderResult().isFailure();
                if (decoded instanceof HttpMessage) {
                    inHead = false;
                }
                if (decoded instanceof LastHttpContent) {
                    inHead = true;
                }
            }
        } finally {
            for (Object decoded : shadowOutput) {
                ReferenceCountUtil.release(decoded);
            }
            shadowOutput.clear();
        }
        return failed;
    }

    private HttpMessage foldRejection() {
        HttpMessage message = createInvalidMessage();
        message.setDecoderResult(DecoderResult.failure(new IllegalArgumentException(
                "obs-fold: a header line starts with SP or HTAB (expected: a field name)")));
        return message;
    }

    /**
     * Finds a line that starts with SP or HTAB. The head parser consumes whole lines only, so every
     * region it consumed starts at a line start.
     */
    private static final class LineStartScanner implements ByteProcessor {

        private boolean atLineStart;

        boolean findsFold(ByteBuf in, int start, int length) {
            atLineStart = true;
            return in.forEachByte(start, length, this) != -1;
        }

        @Override
        public boolean process(byte value) {
            if (atLineStart && (value == ' ' || value == '\t')) {
                return false;
            }
            atLineStart = value == '\n';
            return true;
        }
    }
}
