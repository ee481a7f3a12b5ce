package io.tollgate.core.accesslog;

import java.util.Collection;
import java.util.StringJoiner;

/**
 * Why a response is not simply what the upstream answered, with Envoy's short codes so that
 * operators can read our access log as they read Envoy's.
 */
public enum ResponseFlag {
    NO_HEALTHY_UPSTREAM("UH"),
    UPSTREAM_CONNECTION_FAILURE("UF"),
    UPSTREAM_OVERFLOW("UO"),
    NO_ROUTE("NR"),
    NO_CLUSTER_FOUND("NC"),
    UPSTREAM_REQUEST_TIMEOUT("UT"),
    UPSTREAM_CONNECTION_TERMINATION("UC"),
    UPSTREAM_REMOTE_RESET("UR"),
    DOWNSTREAM_CONNECTION_TERMINATION("DC"),
    DOWNSTREAM_REQUEST_TIMEOUT("DT"),
    DOWNSTREAM_PROTOCOL_ERROR("DPE"),
    UPSTREAM_PROTOCOL_ERROR("UPE"),
    /** Retries were wanted but none was left, or the retry budget or breaker refused one. */
    UPSTREAM_RETRY_LIMIT_EXCEEDED("URX"),
    /** Tollgate's own: the request line, headers or body passed a configured limit. Envoy has no code for it. */
    REQUEST_TOO_LARGE("RTL"),
    /** The overload guard shed the request: heap or descriptors were past their threshold. */
    OVERLOAD_MANAGER("OM"),
    /** The fault filter answered the request with its abort status. */
    FAULT_INJECTED("FI"),
    /** The fault filter delayed the request. */
    DELAY_INJECTED("DI"),
    /** The {@code local_rate_limit} filter refused the request: its token bucket was empty. */
    RATE_LIMITED("RL"),
    /** The external authorization service ({@code ext_authz}) denied the request. */
    UNAUTHORIZED_EXTERNAL_SERVICE("UAEX"),
    /** The rate limit service ({@code rate_limit}) failed and the filter refused the request for it. */
    RATE_LIMIT_SERVICE_ERROR("RLSE");

    /** What {@link AccessLogEntry#responseFlags()} holds when no flag applies. */
    public static final String NONE = "-";

    private final String code;

    ResponseFlag(String code) {
        this.code = code;
    }

    /** The short code written to the access log, e.g. {@code UH}. */
    public String code() {
        return code;
    }

    /** Joins the codes of some flags with commas, or returns {@link #NONE} when there are none. */
    public static String codes(Collection<ResponseFlag> flags) {
        if (flags.isEmpty()) {
            return NONE;
        }
        StringJoiner joined = new StringJoiner(",");
        for (ResponseFlag flag : flags) {
            joined.add(flag.code);
        }
        return joined.toString();
    }
}
