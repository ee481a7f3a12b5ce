package io.tollgate.filters.trace.export;

import java.util.List;

/**
 * Turns one batch of spans into the body of one export request, e.g. Zipkin's v2 JSON list.
 *
 * @param <T> the span type
 */
@FunctionalInterface
public interface BatchEncoder<T> {

    /** The request body for {@code batch}, which is never empty. */
    byte[] encode(List<T> batch);
}
