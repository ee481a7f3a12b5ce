package io.tollgate.protocols.http1;

/**
 * What the request head guard ({@link Http1Decoders#headGuard}) tells the handlers after the codec
 * as a user event, so that a request head's timeout can start at its first byte (Envoy's
 * {@code request_headers_timeout}) without a handler of its own parsing the bytes. A constant:
 * firing it allocates nothing.
 */
public enum RequestHeadEvent {
    /** The first byte of a request head arrived; the head itself follows as a request once complete. */
    STARTED
}
