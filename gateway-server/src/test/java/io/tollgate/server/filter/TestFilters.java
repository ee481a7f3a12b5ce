package io.tollgate.server.filter;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.FilterStatus;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterContext;
import io.tollgate.core.filter.StreamFilterFactory;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A test-only stream filter registered as {@code test_probe}: with {@code action: hold} it holds
 * every request and never lets go, with {@code action: throw} it fails on every request, with
 * {@code action: pass} it lets requests through; in every case it records the statuses its
 * requests completed with and the trailers it saw, and stamps {@code x-probe} on responses it sees.
 */
public final class TestFilters implements StreamFilterFactory {

    /** The completion statuses seen, in order, across tests: tests look for their own. */
    static final ConcurrentLinkedQueue<String> completions = new ConcurrentLinkedQueue<>();
    /** The paths of the requests held so far. */
    static final ConcurrentLinkedQueue<String> holds = new ConcurrentLinkedQueue<>();

    @Override
    public String name() {
        return "test_probe";
    }

    @Override
    public Set<String> keys() {
        return Set.of("action");
    }

    @Override
    public StreamFilterConfig parse(ConfigNode node, StreamFilterConfig base) {
        return base.withSettings(node.string("action"));
    }

    @Override
    public StreamFilter create(StreamFilterConfig config, FilterScope scope) {
        String action = config.settings(String.class);
        return new StreamFilter() {
            @Override
            public FilterStatus onRequest(StreamFilterContext context) {
                return switch (action) {
                    case "hold" -> {
                        holds.add(context.request().path());
                        yield FilterStatus.STOP;
                    }
                    case "throw" -> throw new IllegalStateException("test_probe fails on purpose");
                    default -> FilterStatus.CONTINUE;
                };
            }

            @Override
            public void onResponse(StreamFilterContext context, io.tollgate.core.filter.FilterResponse response) {
                if (response.headers().writable()) {
                    response.headers().set("x-probe", action + ":" + response.status());
                }
            }

            @Override
            public void onRequestTrailers(StreamFilterContext context, io.tollgate.core.filter.FilterHeaders trailers) {
                completions.add("request trailer " + context.request().path() + " " + trailers.get("x-client-trailer"));
            }

            @Override
            public void onResponseTrailers(StreamFilterContext context,
                    io.tollgate.core.filter.FilterHeaders trailers) {
                completions.add("response trailer " + context.request().path() + " " + trailers.get("grpc-status"));
            }

            @Override
            public void onComplete(StreamFilterContext context, int status) {
                completions.add(context.request().path() + " " + status);
            }
        };
    }
}
