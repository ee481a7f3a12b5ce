package io.tollgate.protocols.http2;

/**
 * The gRPC status codes the gateway produces itself, and how a gateway error expressed as an HTTP
 * status maps onto them (after the gRPC "HTTP to gRPC status code mapping", with the gateway's own
 * reasons taking precedence: a route miss is UNIMPLEMENTED, a timeout DEADLINE_EXCEEDED).
 */
public enum GrpcStatus {
    CANCELLED(1),
    UNKNOWN(2),
    DEADLINE_EXCEEDED(4),
    PERMISSION_DENIED(7),
    RESOURCE_EXHAUSTED(8),
    UNIMPLEMENTED(12),
    INTERNAL(13),
    UNAVAILABLE(14),
    UNAUTHENTICATED(16);

    private final int code;

    GrpcStatus(int code) {
        this.code = code;
    }

    /** The numeric code carried in {@code grpc-status}. */
    public int code() {
        return code;
    }

    /**
     * The status for a gateway-generated error.
     *
     * @param httpStatus the HTTP status the gateway would answer a plain HTTP client with
     * @param reason the gateway's reason, e.g. {@code no_route} or {@code upstream_timeout}
     */
    public static GrpcStatus forGatewayError(int httpStatus, String reason) {
        if ("no_route".equals(reason)) {
            return UNIMPLEMENTED;
        }
        if ("upstream_timeout".equals(reason)) {
            return DEADLINE_EXCEEDED;
        }
        switch (httpStatus) {
            case 400:
            case 431:
                return INTERNAL;
            case 401:
                return UNAUTHENTICATED;
            case 403:
                return PERMISSION_DENIED;
            case 404:
                return UNIMPLEMENTED;
            case 413:
                return RESOURCE_EXHAUSTED;
            case 429:
            case 502:
            case 503:
                return UNAVAILABLE;
            case 504:
                return DEADLINE_EXCEEDED;
            default:
                return UNKNOWN;
        }
    }
}
