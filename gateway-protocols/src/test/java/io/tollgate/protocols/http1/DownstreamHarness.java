package io.tollgate.protocols.http1;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Feeds raw bytes through the downstream pipeline the proxy builds (guard, codec, a handler that
 * validates) and records what came out; every decoded object is released.
 */
final class DownstreamHarness {

    static final int MAX_LINE = 256;
    static final int MAX_HEADERS = 512;

    private DownstreamHarness() {
    }

    /** What the pipeline made of the bytes. */
    record Outcome(List<String> requests, List<Rejection> rejections, String body, int messagesEnded) {

        Rejection firstRejection() {
            return rejections.isEmpty() ? null : rejections.get(0);
        }
    }

    /** Feeds {@code raw} in pieces of {@code pieceBytes}, then closes the channel. */
    static Outcome feed(String raw, int pieceBytes) {
        byte[] bytes = raw.getBytes(StandardCharsets.ISO_8859_1);
        List<byte[]> pieces = new ArrayList<>();
        for (int i = 0; i < bytes.length; i += pieceBytes) {
            pieces.add(Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + pieceBytes)));
        }
        return feed(pieces);
    }

    /** Feeds {@code raw} as two pieces split at {@code splitAt}. */
    static Outcome feedSplit(String raw, int splitAt) {
        byte[] bytes = raw.getBytes(StandardCharsets.ISO_8859_1);
        return feed(List.of(
                Arrays.copyOfRange(bytes, 0, splitAt),
                Arrays.copyOfRange(bytes, splitAt, bytes.length)));
    }

    private static Outcome feed(List<byte[]> pieces) {
        Recorder recorder = new Recorder();
        EmbeddedChannel channel = new EmbeddedChannel(
                Http1Decoders.headGuard(MAX_LINE, MAX_HEADERS),
                Http1Decoders.serverCodec(MAX_LINE, MAX_HEADERS),
                recorder);
        try {
            for (byte[] piece : pieces) {
                channel.writeInbound(Unpooled.wrappedBuffer(piece));
            }
            return recorder.snapshot();
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    /** The proxy's first handler after the codec, reduced to validating and recording. */
    private static final class Recorder extends ChannelInboundHandlerAdapter {

        private final List<String> requests = new ArrayList<>();
        private final List<Rejection> rejections = new ArrayList<>();
        private final StringBuilder body = new StringBuilder();
        private int messagesEnded;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof HttpRequest request) {
                    record(Http1RequestValidator.validate(request), request.method() + " " + request.uri());
                } else if (msg instanceof HttpContent content) {
                    record(Http1RequestValidator.fromDecoderFailure(content), null);
                    body.append(content.content().toString(StandardCharsets.ISO_8859_1));
                }
                if (msg instanceof LastHttpContent) {
                    messagesEnded++;
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        private void record(Rejection rejection, String acceptedRequest) {
            if (rejection != null) {
                rejections.add(rejection);
            } else if (acceptedRequest != null) {
                requests.add(acceptedRequest);
            }
        }

        Outcome snapshot() {
            return new Outcome(List.copyOf(requests), List.copyOf(rejections), body.toString(), messagesEnded);
        }
    }
}
