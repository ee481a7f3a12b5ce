package io.tollgate.protocols.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.Http2Headers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class Http2ResponseHeadsTest {

    @Test
    void givesTheStatusAndEveryFieldInLowerCaseInOrder() {
        HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CREATED);
        response.headers().add("Content-Type", "text/plain").add("Set-Cookie", "a=1").add("set-cookie", "b=2")
                .add("X-Custom", "v");

        Http2Headers headers = Http2ResponseHeads.head(response);

        assertThat(headers.status()).hasToString("201");
        assertThat(fields(headers)).containsExactly(
                "content-type: text/plain", "set-cookie: a=1", "set-cookie: b=2", "x-custom: v");
    }

    @Test
    void dropsConnectionSpecificAndConversionFieldsWhateverTheirCase() {
        HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        response.headers().add("Connection", "keep-alive").add("Keep-Alive", "timeout=5")
                .add("Proxy-Connection", "close").add("Transfer-Encoding", "chunked").add("Upgrade", "h2c")
                .add("TE", "trailers").add("Host", "example.com").add("X-Http2-Stream-Id", "3")
                .add("Content-Length", "5");

        Http2Headers headers = Http2ResponseHeads.head(response);

        assertThat(fields(headers)).containsExactly("content-length: 5");
    }

    @Test
    void givesTrailersWithoutAStatus() {
        HttpHeaders trailers = new DefaultHttpHeaders().add("Grpc-Status", "0").add("grpc-message", "ok");

        Http2Headers headers = Http2ResponseHeads.trailers(trailers);

        assertThat(headers.status()).isNull();
        assertThat(fields(headers)).containsExactly("grpc-status: 0", "grpc-message: ok");
    }

    private static List<String> fields(Http2Headers headers) {
        List<String> fields = new ArrayList<>();
        for (Map.Entry<CharSequence, CharSequence> field : headers) {
            if (field.getKey().charAt(0) != ':') {
                fields.add(field.getKey() + ": " + field.getValue());
            }
        }
        return fields;
    }
}
