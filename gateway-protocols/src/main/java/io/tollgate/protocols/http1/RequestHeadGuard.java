package io.tollgate.protocols.http1;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;

/**
 * Refuses request heads that Netty's decoder would quietly repair or read leniently (see
 * {@link HeadScanner}), before they reach {@code HttpServerCodec}.
 *
 * <p>Netty 4.2 merges obs-fold into the previous field value (allowed by RFC 9112 section 5.2, but a
 * front proxy that reads the line differently then sees other headers than we do), and
 * {@code HttpServerCodec} is final, so this cannot be intercepted inside the codec. This handler
 * sits just before the codec and runs a second {@link HttpRequestDecoder} with the same
 * configuration only to know where each request head begins and ends; it forwards exactly the
 * bytes that decoder consumed, so the codec sees the same byte stream, only re-sliced. Head bytes
 * are scanned before they are forwarded: on a problem nothing more is forwarded and a request with
 * a failed {@link DecoderResult} is passed on instead. It travels through the codec untouched (a
 * decoder passes on what is not a {@code ByteBuf}), so the handler after the codec answers 400 as
 * for any decoding failure.
 *
 * <p>It also announces a request head that a read left incomplete with {@link RequestHeadEvent#STARTED}
 * (once per head, in the read that brought its first bytes), so that the head's timeout starts
 * then; a head that arrives whole in one read, the usual case, costs no event and no timer.
 *
 * <p>The price is a second parse of every request head; body bytes are only sliced, never copied.
 * Folds in chunked trailers are not looked for: Netty replaces them with a space, as RFC 9112
 * allows. Not sharable: it keeps per-connection parser state.
 */
final class RequestHeadGuard extends HttpRequestDecoder {

    private static final int FAILED = 1;
    private static final int MESSAGE_STARTED = 2;
    private static final int MESSAGE_ENDED = 4;

    private final List<Object> shadowOutput = new ArrayList<>(4);
    private final HeadScanner scanner = new HeadScanner();
    private boolean inHead = true;
    /** Whether the current head was announced incomplete with {@link RequestHeadEvent#STARTED}. */
    private boolean headStarted;
    private boolean refused;

    RequestHeadGuard(HttpDecoderConfig config) {
        super(config);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        if (refused) {
            in.skipBytes(in.readableBytes());
            return;
        }
        int start = in.readerIndex();
        int seen = runShadow(ctx, in);
        int consumed = in.readerIndex() - start;
        String problem = inHead && (seen & FAILED) == 0 ? scanner.scan(in, start, consumed) : null;
        if (problem != null) {
            refused = true;
            in.skipBytes(in.readableBytes());
            out.add(refusal(problem));
            return;
        }
        if ((seen & MESSAGE_STARTED) != 0) {
            headStarted = false;
        } else if (inHead && !headStarted && (consumed > 0 || in.isReadable())) {
            headStarted = true;
            ctx.fireUserEventTriggered(RequestHeadEvent.STARTED);
        }
        if ((seen & MESSAGE_ENDED) != 0) {
            inHead = true;
            scanner.startHead();
        } else if ((seen & MESSAGE_STARTED) != 0) {
            inHead = false;
        }
        if (consumed > 0) {
            out.add(in.retainedSlice(start, consumed));
        }
    }

    /** Whether the stream stands between two requests: no part of a next head was seen yet. */
    boolean betweenRequests() {
        return inHead && !headStarted && !refused && actualReadableBytes() == 0;
    }

    /** Passes the end of the stream on as bytes only; the codec reports an unfinished message itself. */
    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        if (in.isReadable()) {
            decode(ctx, in, out);
        }
    }

    /** Decodes with the shadow parser, releases what it produced and returns what it saw as flags. */
    private int runShadow(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        int seen = 0;
        try {
            super.decode(ctx, in, shadowOutput);
            for (Object decoded : shadowOutput) {
                if (((HttpObject) decoded).decoderResult().isFailure()) {
                    seen |= FAILED;
                }
                if (decoded instanceof HttpMessage) {
                    seen |= MESSAGE_STARTED;
                }
                if (decoded instanceof LastHttpContent) {
                    seen |= MESSAGE_ENDED;
                }
            }
        } finally {
            for (Object decoded : shadowOutput) {
                ReferenceCountUtil.release(decoded);
            }
            shadowOutput.clear();
        }
        return seen;
    }

    private HttpMessage refusal(String problem) {
        HttpMessage message = createInvalidMessage();
        message.setDecoderResult(DecoderResult.failure(new IllegalArgumentException(problem)));
        return message;
    }
}
