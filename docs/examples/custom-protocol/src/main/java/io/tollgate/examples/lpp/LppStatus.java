package io.tollgate.examples.lpp;

import static java.util.Objects.requireNonNull;

import io.tollgate.protocols.rpc.RpcError;

/**
 * LPP response statuses (the {@code stat} byte of a response or heartbeat ack), with what each
 * means in HTTP terms, so that LPP traffic is counted, ejected and logged in the same terms as
 * HTTP, Bolt and Dubbo; and the statuses the gateway answers its own conditions with.
 *
 * <table>
 *   <caption>statuses, their HTTP meaning, and the gateway conditions answered with them</caption>
 *   <tr><th>code</th><th>status</th><th>HTTP</th><th>the gateway answers it for</th></tr>
 *   <tr><td>0</td><td>OK</td><td>200</td><td>(a heartbeat)</td></tr>
 *   <tr><td>1</td><td>ERROR</td><td>500</td><td>a malformed request</td></tr>
 *   <tr><td>2</td><td>NO_ROUTE</td><td>404</td><td>no route</td></tr>
 *   <tr><td>3</td><td>BUSY</td><td>503</td><td>a circuit breaker or pending queue full</td></tr>
 *   <tr><td>4</td><td>TIMEOUT</td><td>504</td><td>the call's timeout passed</td></tr>
 *   <tr><td>5</td><td>UNAVAILABLE</td><td>502</td><td>no healthy host, unknown cluster, the upstream
 *       unreachable or lost</td></tr>
 * </table>
 * An upstream answering BUSY or TIMEOUT reports the same conditions ({@link #error()}), so a
 * route's {@code retry_on: [rpc-busy]} and {@code [rpc-timeout]} retry them. A code not listed
 * means 500.
 */
public enum LppStatus {
    /** The call completed; the body is its result. */
    OK(0, 200),
    /** The call failed, or the request could not be read. */
    ERROR(1, 500),
    /** Nothing serves the request's service and method. */
    NO_ROUTE(2, 404),
    /** The server refused the request unprocessed: it is busy. */
    BUSY(3, 503),
    /** The call did not complete in time. */
    TIMEOUT(4, 504),
    /** No server could be reached, or the one reached was lost before it answered. */
    UNAVAILABLE(5, 502);

    /** The statuses by code: each code is its constant's ordinal. */
    private static final LppStatus[] BY_CODE = values();

    private final int code;
    private final int httpStatus;

    LppStatus(int code, int httpStatus) {
        this.code = code;
        this.httpStatus = httpStatus;
    }

    /** The code as written in the status byte. */
    public int code() {
        return code;
    }

    /** What this status means in HTTP terms. */
    public int httpStatus() {
        return httpStatus;
    }

    /** The HTTP meaning of any status byte, 500 for a code LPP does not define. */
    public static int httpStatusOf(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code].httpStatus : 500;
    }

    /** The gateway condition a response with {@code code} reports, for the retry policy, or null. */
    public static RpcError errorOf(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code].error() : null;
    }

    /** {@link RpcError#OVERFLOW} for BUSY, {@link RpcError#TIMEOUT} for TIMEOUT, else null. */
    public RpcError error() {
        return switch (this) {
            case BUSY -> RpcError.OVERFLOW;
            case TIMEOUT -> RpcError.TIMEOUT;
            default -> null;
        };
    }

    /** The status the gateway answers {@code error} with (the table above). */
    public static LppStatus of(RpcError error) {
        return switch (requireNonNull(error, "error")) {
            case NO_ROUTE -> NO_ROUTE;
            case NO_HEALTHY_UPSTREAM, CONNECTION_CLOSED -> UNAVAILABLE;
            case OVERFLOW, RATE_LIMITED -> BUSY;
            case TIMEOUT -> TIMEOUT;
            case MALFORMED, PERMISSION_DENIED, SERVER_ERROR -> ERROR;
        };
    }
}
