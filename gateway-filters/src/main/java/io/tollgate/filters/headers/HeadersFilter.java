package io.tollgate.filters.headers;

import io.tollgate.core.filter.FilterResponse;
import io.tollgate.core.filter.FilterStatus;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterContext;

/**
 * Header manipulation: request headers changed before the request goes on, response headers
 * before the response is written, values with variables filled in per request. Only headers that
 * can change are changed: HTTP/1.1 and HTTP/2 (gRPC included); an RPC frame passes untouched.
 */
final class HeadersFilter implements StreamFilter {

    private final HeadersSettings settings;

    HeadersFilter(HeadersSettings settings) {
        this.settings = settings;
    }

    @Override
    public FilterStatus onRequest(StreamFilterContext context) {
        if (!settings.request().isEmpty() && context.requestHeaders().writable()) {
            settings.request().apply(context.requestHeaders(), context);
        }
        return FilterStatus.CONTINUE;
    }

    @Override
    public void onResponse(StreamFilterContext context, FilterResponse response) {
        if (settings.response().isEmpty() || response.error()) {
            return;
        }
        if (response.headers().writable()) {
            settings.response().apply(response.headers(), context);
        }
    }
}
