package io.tollgate.server.http;

import io.netty.handler.codec.http.HttpResponse;
import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.filter.FilterResponse;

/**
 * An HTTP response head on its way to the client, as filters see it.
 *
 * @param local whether the gateway made it itself
 * @param error whether it reports a failure of the gateway's
 */
record HttpFilterResponse(HttpResponse response, boolean local, boolean error) implements FilterResponse {

    @Override
    public int status() {
        return response.status().code();
    }

    @Override
    public FilterHeaders headers() {
        return new HttpFilterHeaders(response.headers());
    }
}
