package io.tollgate.server.http;

import io.netty.handler.codec.http.HttpResponse;
import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.filter.FilterResponse;

/** An HTTP response head on its way to the client, as filters see it. */
final class HttpFilterResponse implements FilterResponse {

    private final HttpResponse response;
    private final boolean local;
    private final boolean error;

    HttpFilterResponse(HttpResponse response, boolean local, boolean error) {
        this.response = response;
        this.local = local;
        this.error = error;
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
    public boolean error() {
        return error;
    }

    @Override
    public FilterHeaders headers() {
        return new HttpFilterHeaders(response.headers());
    }
}
