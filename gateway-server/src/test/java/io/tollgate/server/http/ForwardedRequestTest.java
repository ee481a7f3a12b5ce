package io.tollgate.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.router.route.Route;
import io.tollgate.router.route.RouteTable;
import org.junit.jupiter.api.Test;

/**
 * The forwarding headers of a request sent upstream. Found by {@code Http2FramesFuzzTest}: a
 * connection without a client IP address (which {@code ClientAddresses.ip} allows) made forwarding
 * throw, and the HTTP/2 connection end with GOAWAY INTERNAL_ERROR.
 */
class ForwardedRequestTest {

    /** The built-in configuration's HTTP listener: every request goes to the demo cluster. */
    private static final RouteTable ROUTES =
            RouteTable.compile(ConfigLoader.defaults().listeners().get(0).routeConfig());

    @Test
    void appendsTheClientAddressToXForwardedFor() {
        HttpRequest request = request();
        request.headers().set(ForwardedRequest.X_FORWARDED_FOR, "10.0.0.1");

        prepare(request, "192.0.2.7");

        assertThat(request.headers().get(ForwardedRequest.X_FORWARDED_FOR)).isEqualTo("10.0.0.1, 192.0.2.7");
    }

    @Test
    void passesXForwardedForOnAsItCameWhenTheConnectionHasNoClientAddress() {
        HttpRequest withHeader = request();
        withHeader.headers().set(ForwardedRequest.X_FORWARDED_FOR, "10.0.0.1");
        HttpRequest without = request();

        prepare(withHeader, null);
        prepare(without, null);

        assertThat(withHeader.headers().getAll(ForwardedRequest.X_FORWARDED_FOR)).containsExactly("10.0.0.1");
        assertThat(without.headers().contains(ForwardedRequest.X_FORWARDED_FOR)).isFalse();
        assertThat(without.headers().get(ForwardedRequest.X_FORWARDED_PROTO)).isEqualTo("http");
    }

    private static HttpRequest request() {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/orders?id=1");
        request.headers().set("host", "shop.example.com");
        return request;
    }

    private static void prepare(HttpRequest request, String clientIp) {
        HttpRouteRequest view = new HttpRouteRequest(null, request, clientIp, true, true);
        Route route = ROUTES.route(view);
        ForwardedRequest.prepare(request, view, route, clientIp, "http", false, false);
    }
}
