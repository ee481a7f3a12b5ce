package io.tollgate.server.http;

import io.netty.handler.codec.http.HttpResponse;
import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.filter.FilterResponse;

/** An HTTP response head on its way to the client, as filters see it. */
final class HttpFilterResponse implements FilterResponse {

    private final HttpResponse response;
    private final boolean local;

    HttpFilterResponse(HttpResponse response, boolean local) {
        this.response = response;
        this.local = local;
    }

    @Override
    public int status() {
        return response.status().code();
    }

    @Override
    public boolean local() {
        return local;
    }

    @Override
    public FilterHeaders headers() {
        return new HttpFilterHeaders(response.headers());
    }
}
