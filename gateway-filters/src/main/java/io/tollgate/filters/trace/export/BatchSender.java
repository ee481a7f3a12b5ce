package io.tollgate.filters.trace.export;

import java.io.IOException;
import java.util.List;

/**
 * Sends one batch of spans to a tracing backend, on the exporter's own thread (it may block, up
 * to its timeout): an HTTP POST ({@link HttpBatchSender}) or a gRPC call.
 *
 * @param <T> the span type
 */
public interface BatchSender<T> extends AutoCloseable {

    /**
     * Sends {@code batch} (never empty) and returns how many of its spans the backend accepted;
     * throws when the request failed, which loses the whole batch.
     */
    int send(List<T> batch) throws IOException;

    /** Releases the sender's connection, once its exporter's thread ended. */
    @Override
    default void close() {
    }
}
