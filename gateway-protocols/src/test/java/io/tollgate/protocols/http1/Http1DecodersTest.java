package io.tollgate.protocols.http1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Http1DecodersTest {

    @Test
    void clientCodecDecodesAResponseToARequestItSent() {
        EmbeddedChannel upstream = new EmbeddedChannel(Http1Decoders.clientCodec(256, 512));
        try {
            upstream.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/"));
            upstream.writeInbound(ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));

            HttpObject head = upstream.readInbound();
            HttpContent body = upstream.readInbound();
            try {
                assertThat(head.decoderResult().isSuccess()).isTrue();
                assertThat(((HttpResponse) head).status().code()).isEqualTo(200);
                assertThat(body.content().toString(StandardCharsets.US_ASCII)).isEqualTo("ok");
            } finally {
                ReferenceCountUtil.release(head);
                body.release();
            }
        } finally {
            upstream.finishAndReleaseAll();
        }
    }

    @Test
    void clientCodecFailsAnHttp10ResponseWithTwoContentLengthsAndReportsItOwed() {
        EmbeddedChannel upstream = new EmbeddedChannel(Http1Decoders.clientCodec(256, 512));
        upstream.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/"));
        upstream.writeInbound(ascii("HTTP/1.0 200 OK\r\nContent-Length: 2\r\nContent-Length: 20\r\n\r\nok"));

        HttpObject head = upstream.readInbound();
        try {
            assertThat(head.decoderResult().cause()).hasMessageContaining("Content-Length");
        } finally {
            ReferenceCountUtil.release(head);
        }
        assertThatThrownBy(upstream::finishAndReleaseAll).isInstanceOf(PrematureChannelClosureException.class);
    }

    @Test
    void refusesLimitsThatAreNotPositive() {
        assertThatThrownBy(() -> Http1Decoders.serverCodec(0, 512))
                .hasMessageContaining("maxInitialLineBytes: 0 (expected: > 0)");
        assertThatThrownBy(() -> Http1Decoders.clientCodec(256, -1))
                .hasMessageContaining("maxHeaderBytes: -1 (expected: > 0)");
    }

    private static ByteBuf ascii(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
    }
}
