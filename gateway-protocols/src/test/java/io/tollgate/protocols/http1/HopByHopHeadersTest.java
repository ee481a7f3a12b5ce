package io.tollgate.protocols.http1;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.api.Test;

class HopByHopHeadersTest {

    @Test
    void stripsHopByHopFieldsAndThoseConnectionNames() {
        HttpHeaders headers = request(HttpVersion.HTTP_1_1).headers()
                .add("Connection", "keep-alive, X-Hop")
                .add("Connection", "x-other ,")
                .add("X-Hop", "1").add("X-Other", "2").add("Keep-Alive", "timeout=5")
                .add("Proxy-Connection", "keep-alive").add("TE", "trailers").add("Upgrade", "websocket")
                .add("X-End", "3");

        HopByHopHeaders.strip(headers);

        assertThat(headers.names()).containsExactlyInAnyOrder("Host", "X-End");
    }

    @Test
    void stripsHopByHopFieldsThatNoConnectionHeaderAnnounces() {
        HttpHeaders headers = request(HttpVersion.HTTP_1_1).headers()
                .add("te", "trailers").add("upgrade", "h2c").add("X-Kept", "1");

        HopByHopHeaders.strip(headers);

        assertThat(headers.names()).containsExactlyInAnyOrder("Host", "X-Kept");
    }

    @Test
    void readsConnectionOptionsSeparatedByBlanksAndEmptyEntries() {
        HttpHeaders headers = request(HttpVersion.HTTP_1_1).headers()
                .add("Connection", "X-A ,,  x-b\t, close")
                .add("X-A", "1").add("X-B", "2").add("Close", "3").add("X-C", "4");

        HopByHopHeaders.strip(headers);

        assertThat(headers.names()).containsExactlyInAnyOrder("Host", "X-C");
    }

    @Test
    void leavesAMessageWithoutHopByHopFieldsAsItIs() {
        HttpHeaders headers = request(HttpVersion.HTTP_1_1).headers().add("X-Kept", "1").add("Accept", "*/*");

        HopByHopHeaders.strip(headers);

        assertThat(headers.names()).containsExactlyInAnyOrder("Host", "X-Kept", "Accept");
    }

    @Test
    void keepsFramingAndHostEvenWhenConnectionNamesThem() {
        HttpHeaders headers = request(HttpVersion.HTTP_1_1).headers()
                .add("Connection", "Content-Length, transfer-encoding, HOST")
                .add("Content-Length", "5").add("Transfer-Encoding", "chunked");

        HopByHopHeaders.strip(headers);

        assertThat(headers.names()).containsExactlyInAnyOrder("Host", "Content-Length", "Transfer-Encoding");
    }

    @Test
    void keepsProxyCredentialsForAProxyFurtherOn() {
        HttpHeaders headers = request(HttpVersion.HTTP_1_1).headers()
                .add("Proxy-Authorization", "Basic eDp5").add("Proxy-Authenticate", "Basic");

        HopByHopHeaders.strip(headers);

        assertThat(headers.contains("Proxy-Authorization")).isTrue();
        assertThat(headers.contains("Proxy-Authenticate")).isTrue();
    }

    @Test
    void http11WantsCloseOnlyWhenItSaysClose() {
        HttpRequest plain = request(HttpVersion.HTTP_1_1);
        HttpRequest closing = request(HttpVersion.HTTP_1_1);
        closing.headers().set("Connection", "Close");

        assertThat(HopByHopHeaders.wantsClose(plain)).isFalse();
        assertThat(HopByHopHeaders.wantsClose(closing)).isTrue();
    }

    @Test
    void http10WantsCloseUnlessItAsksForKeepAlive() {
        HttpRequest plain = request(HttpVersion.HTTP_1_0);
        HttpRequest keepAlive = request(HttpVersion.HTTP_1_0);
        keepAlive.headers().set("Connection", "Keep-Alive");

        assertThat(HopByHopHeaders.wantsClose(plain)).isTrue();
        assertThat(HopByHopHeaders.wantsClose(keepAlive)).isFalse();
    }

    @Test
    void setsConnectionForTheClientsVersionNotTheResponses() {
        assertThat(connectionAfter(HttpVersion.HTTP_1_0, true)).isEqualTo("keep-alive");
        assertThat(connectionAfter(HttpVersion.HTTP_1_0, false)).isEqualTo("close");
        assertThat(connectionAfter(HttpVersion.HTTP_1_1, true)).isNull();
        assertThat(connectionAfter(HttpVersion.HTTP_1_1, false)).isEqualTo("close");
    }

    private static String connectionAfter(HttpVersion clientVersion, boolean keepAlive) {
        HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        response.headers().set("Connection", "upgrade");
        HopByHopHeaders.setKeepAlive(response, clientVersion, keepAlive);
        return response.headers().get("Connection");
    }

    private static HttpRequest request(HttpVersion version) {
        HttpRequest request = new DefaultHttpRequest(version, HttpMethod.GET, "/");
        request.headers().set("Host", "a");
        return request;
    }
}
