package io.tollgate.protocols.http1;

/**
 * What the request head guard ({@link Http1Decoders#headGuard}) tells the handlers after the codec
 * as a user event, so that a request head's timeout (Envoy's {@code request_headers_timeout}) can
 * start with its first bytes without a handler of its own parsing them. A constant: firing it
 * allocates nothing.
 */
public enum RequestHeadEvent {
    /**
     * A read brought the first bytes of a request head but not all of it; the head follows as a
     * request once complete. Not fired for a head that arrives whole in one read.
     */
    STARTED
}
