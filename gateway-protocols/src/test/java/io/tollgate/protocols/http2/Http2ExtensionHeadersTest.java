package io.tollgate.protocols.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http2.HttpConversionUtil;
import org.junit.jupiter.api.Test;

class Http2ExtensionHeadersTest {

    @Test
    void removesEveryConversionHeaderWhateverItsCase() {
        HttpHeaders headers = new DefaultHttpHeaders().add("x-kept", "1");
        for (HttpConversionUtil.ExtensionHeaderNames name : HttpConversionUtil.ExtensionHeaderNames.values()) {
            headers.add(name.text().toUpperCase(), "7");
        }

        Http2ExtensionHeaders.strip(headers);

        assertThat(headers.names()).containsExactly("x-kept");
    }

    @Test
    void keepsHeadersThatOnlyLookLikeConversionHeaders() {
        HttpHeaders headers = new DefaultHttpHeaders().add("x-http2-custom", "1").add("x-http2", "2");

        Http2ExtensionHeaders.strip(headers);

        assertThat(headers.names()).containsExactlyInAnyOrder("x-http2-custom", "x-http2");
    }
}
