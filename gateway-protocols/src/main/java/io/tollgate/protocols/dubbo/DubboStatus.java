package io.tollgate.protocols.dubbo;

import io.tollgate.protocols.rpc.RpcStatus;
import io.tollgate.protocols.rpc.RpcStatusTable;

/**
 * Dubbo response status codes (the byte at offset 3 of a response) and the HTTP status each means to
 * metrics, outlier detection and the access log, so that Dubbo traffic is counted in the same terms
 * as HTTP and Bolt traffic.
 *
 * <p>The mapping starts from MOSN's (20 200, 30 and 31 504, 60 502, 100 507, else 500) and departs
 * from it where Dubbo's meaning says otherwise: 100, a provider's full thread pool, is "busy", 503
 * as Bolt's busy status; 40 is the request's fault (a provider answers it to a request it cannot
 * decode), 400 rather than MOSN's 504; 50 means no valid response came, 502; 60, the service is not
 * available here, is 503, what the gateway's HTTP listeners answer when they have no route or no
 * healthy host, the two conditions the gateway itself answers with 60.
 */
public enum DubboStatus implements RpcStatus {
    /** The call completed; the body holds its value or its application exception. */
    OK(20, 200),
    /** The response could not be serialized, e.g. over the payload limit (Dubbo 3). */
    SERIALIZATION_ERROR(25, 500),
    /** The consumer's own timeout; providers do not send it, proxies (MOSN) may. */
    CLIENT_TIMEOUT(30, 504),
    /** The server side timed out. */
    SERVER_TIMEOUT(31, 504),
    /** The provider could not decode the request (also its answer for an unexported service). */
    BAD_REQUEST(40, 400),
    /** The response could not be produced or encoded. */
    BAD_RESPONSE(50, 502),
    /** The service is not available there. */
    SERVICE_NOT_FOUND(60, 503),
    /** The invocation failed outside the application's own exceptions. */
    SERVICE_ERROR(70, 500),
    /** The server failed. */
    SERVER_ERROR(80, 500),
    /** The client failed; set by consumers for themselves. */
    CLIENT_ERROR(90, 500),
    /** The provider's thread pool is full: it is busy. */
    SERVER_THREADPOOL_EXHAUSTED_ERROR(100, 503);

    /** Every status by code, and what a code no status names means. */
    public static final RpcStatusTable<DubboStatus> CODES = new RpcStatusTable<>(values());

    private final int code;
    private final int httpStatus;

    DubboStatus(int code, int httpStatus) {
        this.code = code;
        this.httpStatus = httpStatus;
    }

    /** The code as written in a response's status byte. */
    @Override
    public int code() {
        return code;
    }

    /** The HTTP status this code means: 200 success, 400 bad request, 502, 503 unavailable or busy, 504 timeout, else 500. */
    @Override
    public int httpStatus() {
        return httpStatus;
    }
}
