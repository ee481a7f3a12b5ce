package io.tollgate.filters.fault;

import java.time.Duration;
import java.util.Map;

/**
 * What the {@code fault} filter injects, as read from the configuration.
 *
 * @param delay the delay to inject, or null for none
 * @param abort the abort to inject, or null for none
 * @param headers the request headers (name to exact value) a request must carry for any fault to
 *     apply; empty: every request
 * @param seed the seed of the percentage draws, or null to draw from the thread's random source
 */
public record FaultSettings(Delay delay, Abort abort, Map<String, String> headers, Long seed) {

    /** The header that, with {@link Delay#fromHeader()}, gives the delay in milliseconds. */
    public static final String DELAY_HEADER = "x-tollgate-fault-delay-request";
    /** The header that, with {@link Abort#fromHeader()}, gives the HTTP status to abort with. */
    public static final String ABORT_HEADER = "x-tollgate-fault-abort-request";
    /** The header that, with {@link Abort#fromHeader()}, gives the gRPC status to abort gRPC calls with. */
    public static final String ABORT_GRPC_HEADER = "x-tollgate-fault-abort-grpc-request";

    public FaultSettings {
        headers = Map.copyOf(headers);
    }

    /**
     * A fixed delay of a share of requests.
     *
     * @param fixed the delay, unless taken from the request
     * @param fromHeader whether a request's {@link #DELAY_HEADER} sets its delay (requests
     *     without the header are not delayed)
     * @param percentage the share of requests delayed, 0 to 100
     */
    public record Delay(Duration fixed, boolean fromHeader, double percentage) {
    }

    /**
     * An abort of a share of requests: the gateway answers instead of the upstream.
     *
     * @param httpStatus the HTTP status answered (gRPC and RPC protocols map it), unless taken from the request
     * @param grpcStatus the gRPC status for gRPC calls, or -1 to map the HTTP status
     * @param fromHeader whether a request's {@link #ABORT_HEADER} (and {@link #ABORT_GRPC_HEADER})
     *     sets its status (requests without the header are not aborted)
     * @param percentage the share of requests aborted, 0 to 100
     */
    public record Abort(int httpStatus, int grpcStatus, boolean fromHeader, double percentage) {
    }
}
