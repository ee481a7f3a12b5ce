package io.tollgate.protocols.http1;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Fuzzes what a listener does with the bytes of an HTTP/1 connection before the proxy reads them:
 * the head guard and Netty's server codec as {@link Http1Decoders} builds them (with small limits,
 * so that fuzzed heads reach them), then {@link Http1RequestValidator} on every decoded object, as
 * the proxy handler calls it.
 *
 * <p>Nothing may be thrown (the channel would rethrow it): every malformed input is a decoded
 * object with a failed result, which the validator turns into a rejection. The same bytes in one
 * read, in two and in three give the same requests up to the first rejection (where the proxy
 * answers and closes), and a rejection in each or in none; its status may differ, since which of
 * two faults of a line Netty reports first (a bare CR, the line's length) depends on how much of
 * the line had arrived. Every buffer read ends with no reference. Seeds: typical, pipelined,
 * chunked and smuggling-shaped requests, in {@code RequestHeadFuzzTestInputs}.
 */
class RequestHeadFuzzTest {

    private static final int MAX_LINE = 256;
    private static final int MAX_HEADERS = 1024;

    @FuzzTest(maxDuration = "2m")
    void decodesValidatesOrRefusesAnyRequestStream(byte[] input) {
        Outcome whole = decode(input, input.length);
        assertThat(decode(input, input.length / 2)).as("read in two parts").isEqualTo(whole);
        assertThat(decode(input, input.length / 3, 2 * input.length / 3)).as("read in three parts").isEqualTo(whole);
    }

    /**
     * What the proxy would see up to the first rejection: each accepted request's head, body and
     * trailers, and whether a rejection ended the connection.
     */
    private record Outcome(List<String> requests, boolean rejected) {
    }

    /** Decodes {@code input} delivered as reads cut at each of {@code cuts}. */
    private static Outcome decode(byte[] input, int... cuts) {
        Recorder recorder = new Recorder();
        EmbeddedChannel channel = new EmbeddedChannel(
                Http1Decoders.headGuard(MAX_LINE, MAX_HEADERS),
                Http1Decoders.serverCodec(MAX_LINE, MAX_HEADERS),
                recorder);
        List<ByteBuf> reads = new ArrayList<>();
        try {
            int from = 0;
            for (int i = 0; i <= cuts.length; i++) {
                int to = i < cuts.length ? cuts[i] : input.length;
                byte[] part = Arrays.copyOfRange(input, from, to);
                ByteBuf read = ByteBufAllocator.DEFAULT.buffer(Math.max(1, part.length)).writeBytes(part);
                reads.add(read);
                channel.writeInbound(read);
                from = to;
            }
            channel.finish();
        } finally {
            channel.finishAndReleaseAll();
        }
        for (ByteBuf read : reads) {
            assertThat(read.refCnt()).as("references left on a read").isZero();
        }
        return recorder.outcome();
    }

    /** The proxy handler reduced to validating, recording and releasing what the codec decoded. */
    private static final class Recorder extends ChannelInboundHandlerAdapter {

        private final List<String> requests = new ArrayList<>();
        private final StringBuilder current = new StringBuilder();
        private int rejection;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                assertThat(msg).isInstanceOf(HttpObject.class);
                if (rejection != 0) {
                    return;
                }
                Rejection refused = msg instanceof HttpRequest request
                        ? Http1RequestValidator.validate(request)
                        : Http1RequestValidator.fromDecoderFailure((HttpObject) msg);
                if (refused != null) {
                    assertThat(refused.status()).isIn(400, 414, 431, 505);
                    rejection = refused.status();
                    return;
                }
                if (msg instanceof HttpRequest request) {
                    current.append(request.method()).append(' ').append(request.uri()).append(' ')
                            .append(request.protocolVersion());
                    for (Map.Entry<String, String> header : request.headers()) {
                        current.append('\n').append(header.getKey()).append(": ").append(header.getValue());
                    }
                    current.append("\n\n");
                }
                if (msg instanceof HttpContent content) {
                    current.append(content.content().toString(StandardCharsets.ISO_8859_1));
                }
                if (msg instanceof LastHttpContent last) {
                    last.trailingHeaders().forEach(t -> current.append('\n').append(t.getKey()).append(": ")
                            .append(t.getValue()));
                    requests.add(current.toString());
                    current.setLength(0);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        Outcome outcome() {
            return new Outcome(List.copyOf(requests), rejection != 0);
        }
    }
}
