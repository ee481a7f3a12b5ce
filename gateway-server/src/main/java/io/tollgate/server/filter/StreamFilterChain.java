package io.tollgate.server.filter;

import io.tollgate.core.filter.StreamFilter;
import java.util.List;

/**
 * The filters one request passes, in order, made once per configuration. The empty chain is one
 * shared instance, which protocols test for so that a listener without filters costs nothing.
 */
public final class StreamFilterChain {

    /** No filter: requests go straight to their route's action. */
    public static final StreamFilterChain EMPTY = new StreamFilterChain(new StreamFilter[0]);

    private final StreamFilter[] filters;

    private StreamFilterChain(StreamFilter[] filters) {
        this.filters = filters;
    }

    /** The chain of {@code filters}; {@link #EMPTY} when there is none. */
    public static StreamFilterChain of(List<StreamFilter> filters) {
        return filters.isEmpty() ? EMPTY : new StreamFilterChain(filters.toArray(new StreamFilter[0]));
    }

    /** Whether the chain has no filter. */
    public boolean isEmpty() {
        return filters.length == 0;
    }

    int size() {
        return filters.length;
    }

    StreamFilter get(int index) {
        return filters[index];
    }
}
