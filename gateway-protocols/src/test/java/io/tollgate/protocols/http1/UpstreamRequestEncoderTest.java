package io.tollgate.protocols.http1;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestEncoder;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class UpstreamRequestEncoderTest {

    @Test
    void writesARequestWithoutBodyAsNettysEncoderDoes() {
        assertSameBytesAsNetty(() -> List.of(head("GET", "/a?b=c", "host", "up", "x-request-id", "1"),
                LastHttpContent.EMPTY_LAST_CONTENT));
    }

    @Test
    void writesAFullRequestWithAContentLengthBodyAsNettysEncoderDoes() {
        assertSameBytesAsNetty(() -> {
            FullHttpRequest full = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/p",
                    Unpooled.copiedBuffer("hello", StandardCharsets.US_ASCII));
            full.headers().set(HttpHeaderNames.CONTENT_LENGTH, 5);
            return List.of(full);
        });
    }

    @Test
    void writesAStreamedContentLengthBodyAsNettysEncoderDoes() {
        assertSameBytesAsNetty(() -> List.of(head("PUT", "/p", "content-length", "6"),
                content("abc"), last("def")));
    }

    @Test
    void writesAChunkedBodyWithTrailersAsNettysEncoderDoes() {
        assertSameBytesAsNetty(() -> {
            LastHttpContent end = last("");
            end.trailingHeaders().set("grpc-status", "0").set("x-sum", "abc");
            return List.of(head("POST", "/c", "Transfer-Encoding", "chunked"), content("hello"),
                    content(""), content("0123456789abcdef0"), end);
        });
    }

    @Test
    void writesAChunkedBodyWhoseLastPartCarriesDataAsNettysEncoderDoes() {
        assertSameBytesAsNetty(() -> List.of(head("POST", "/c", "transfer-encoding", "gzip, CHUNKED "),
                last("tail")));
    }

    @Test
    void writesAChunkedFullRequestWithoutBodyAsALastChunkOnly() {
        EmbeddedChannel channel = encoder();
        FullHttpRequest full = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/",
                Unpooled.EMPTY_BUFFER);
        full.headers().set(HttpHeaderNames.TRANSFER_ENCODING, "chunked");

        channel.writeOutbound(full);

        assertThat(written(channel)).isEqualTo("POST / HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n");
        channel.finishAndReleaseAll();
    }

    @Test
    void passesTheBodyAsItIsWhenChunkedIsNotTheLastCoding() {
        EmbeddedChannel channel = encoder();

        channel.writeOutbound(head("POST", "/", "transfer-encoding", "chunkedx"), last("raw"));

        assertThat(written(channel)).isEqualTo("POST / HTTP/1.1\r\ntransfer-encoding: chunkedx\r\n\r\nraw");
        channel.finishAndReleaseAll();
    }

    @Test
    void writesAnEmptyTargetAsTheRoot() {
        EmbeddedChannel channel = encoder();

        channel.writeOutbound(head("GET", ""), LastHttpContent.EMPTY_LAST_CONTENT);

        assertThat(written(channel)).isEqualTo("GET / HTTP/1.1\r\n\r\n");
        channel.finishAndReleaseAll();
    }

    @Test
    void writesPipelinedRequestsOneAfterTheOther() {
        EmbeddedChannel channel = encoder();

        channel.writeOutbound(head("GET", "/1"), LastHttpContent.EMPTY_LAST_CONTENT, head("GET", "/2"),
                LastHttpContent.EMPTY_LAST_CONTENT);

        assertThat(written(channel)).isEqualTo("GET /1 HTTP/1.1\r\n\r\nGET /2 HTTP/1.1\r\n\r\n");
        channel.finishAndReleaseAll();
    }

    @Test
    void failsTheWriteOfBodyContentBeforeAHead() {
        EmbeddedChannel channel = encoder();
        HttpContent early = content("early");

        ChannelFuture write = channel.writeOneOutbound(early);

        assertThat(write.cause()).isInstanceOf(EncoderException.class).hasMessageContaining("before a request head");
        assertThat(early.refCnt()).isZero();
        channel.finishAndReleaseAll();
    }

    @Test
    void failsTheWriteOfAHeadWhileABodyIsInProgress() {
        EmbeddedChannel channel = encoder();
        channel.writeOutbound(head("POST", "/", "content-length", "3"));

        ChannelFuture write = channel.writeOneOutbound(head("GET", "/"));

        assertThat(write.cause()).isInstanceOf(EncoderException.class).hasMessageContaining("in progress");
        channel.finishAndReleaseAll();
    }

    @Test
    void decodesTheResponseToHeadWithoutABodyAndTheNextResponseWithOne() {
        EmbeddedChannel channel = codec();
        channel.writeOutbound(head("HEAD", "/"), LastHttpContent.EMPTY_LAST_CONTENT, head("GET", "/"),
                LastHttpContent.EMPTY_LAST_CONTENT);
        channel.releaseOutbound();

        channel.writeInbound(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", StandardCharsets.US_ASCII));

        List<HttpObject> read = new ArrayList<>();
        for (HttpObject msg; (msg = channel.readInbound()) != null; ) {
            read.add(msg);
        }
        try {
            assertThat(read).hasSize(4);
            assertThat(read.get(1)).isSameAs(LastHttpContent.EMPTY_LAST_CONTENT);
            assertThat(read.get(2)).isInstanceOf(HttpResponse.class);
            assertThat(((LastHttpContent) read.get(3)).content().toString(StandardCharsets.US_ASCII)).isEqualTo("ok");
            assertThat(read).allMatch(msg -> msg.decoderResult().isSuccess());
        } finally {
            read.forEach(ReferenceCountUtil::release);
        }
        assertThat(channel.finishAndReleaseAll()).isFalse();
    }

    private static EmbeddedChannel encoder() {
        return new EmbeddedChannel(new UpstreamRequestEncoder(new OutstandingRequests()));
    }

    private static EmbeddedChannel codec() {
        return new EmbeddedChannel(Http1Decoders.clientCodec(256, 512));
    }

    /** Encodes the messages made by {@code messages} with ours and with Netty's encoder, expecting the same bytes. */
    private static void assertSameBytesAsNetty(Supplier<List<HttpObject>> messages) {
        EmbeddedChannel ours = encoder();
        EmbeddedChannel netty = new EmbeddedChannel(new HttpRequestEncoder());

        ours.writeOutbound(messages.get().toArray());
        netty.writeOutbound(messages.get().toArray());

        assertThat(written(ours)).isEqualTo(written(netty)).isNotEmpty();
        ours.finishAndReleaseAll();
        netty.finishAndReleaseAll();
    }

    private static String written(EmbeddedChannel channel) {
        StringBuilder text = new StringBuilder();
        for (ByteBuf buf; (buf = channel.readOutbound()) != null; ) {
            text.append(buf.toString(StandardCharsets.US_ASCII));
            buf.release();
        }
        return text.toString();
    }

    private static HttpRequest head(String method, String uri, String... headers) {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.valueOf(method), uri);
        for (int i = 0; i < headers.length; i += 2) {
            request.headers().add(headers[i], headers[i + 1]);
        }
        return request;
    }

    private static HttpContent content(String text) {
        return new DefaultHttpContent(Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII));
    }

    private static LastHttpContent last(String text) {
        return new DefaultLastHttpContent(Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII));
    }
}
