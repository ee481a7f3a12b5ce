package io.tollgate.filters.trace.export;

import java.net.URI;
import java.time.Duration;

/**
 * How an exporter sends: where, in what batches, how often and how long it waits for an answer.
 * Equal settings share one exporter ({@link SharedExporters}).
 *
 * @param endpoint the URL batches are POSTed to
 * @param contentType the body's media type
 * @param maxQueue spans waiting at most; more are dropped (rounded up to a power of two)
 * @param maxBatch spans per request at most
 * @param flushInterval the longest a span waits for its batch to fill
 * @param timeout connecting and waiting for the answer, each
 */
public record BatchSettings(URI endpoint, String contentType, int maxQueue, int maxBatch, Duration flushInterval,
        Duration timeout) {
}
