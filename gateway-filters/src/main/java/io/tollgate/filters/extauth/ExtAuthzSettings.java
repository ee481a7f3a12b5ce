package io.tollgate.filters.extauth;

import io.tollgate.filters.grpcservice.GrpcServiceSettings;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * What an {@code ext_authz} entry configures: the service asked (exactly one of gRPC and HTTP),
 * what a failed check means, and what the check carries.
 *
 * @param grpcService Envoy's gRPC API at this target, or null
 * @param httpService an HTTP subrequest to this server, or null
 * @param failureModeAllow whether a request passes when the service cannot be asked
 * @param statusOnError the status a request is refused with when the service cannot be asked
 * @param allowedHeaders the request headers sent (lower case), null for every header the protocol lists
 * @param contextExtensions sent as the check's {@code context_extensions} (gRPC)
 * @param withRequestBody the request's body goes with the check, or null for none
 */
record ExtAuthzSettings(GrpcServiceSettings grpcService, HttpServiceSettings httpService, boolean failureModeAllow,
        int statusOnError, Set<String> allowedHeaders, Map<String, String> contextExtensions,
        BodySettings withRequestBody) {

    /** Envoy's default timeout of a check. */
    static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(200);

    /**
     * Envoy's {@code with_request_body}: the request waits until its body is read, up to a limit,
     * and the check carries it.
     *
     * @param maxRequestBytes the most of the body read and sent
     * @param allowPartialMessage a longer body is checked by its first bytes; else it is refused 413
     * @param packAsBytes the gRPC check carries the bytes as {@code raw_body}, not as UTF-8 text in {@code body}
     */
    record BodySettings(int maxRequestBytes, boolean allowPartialMessage, boolean packAsBytes) {
    }

    /**
     * The HTTP form of the check: the request's method and path (behind {@code pathPrefix}) and
     * its allowed headers, without a body, sent to {@code serverUri}; 200 allows, any other status
     * denies with that status.
     *
     * @param serverUri the authorization server's base, {@code http://host:port}
     * @param pathPrefix put before the request's path
     * @param timeout the deadline of each check
     * @param allowedUpstreamHeaders the headers of a 200 answer copied onto the request
     * @param allowedClientHeaders the headers of a denial copied onto the client's answer, null for all
     * @param allowedClientHeadersOnSuccess the headers of a 200 answer copied onto the upstream's answer
     */
    record HttpServiceSettings(URI serverUri, String pathPrefix, Duration timeout, Set<String> allowedUpstreamHeaders,
            Set<String> allowedClientHeaders, Set<String> allowedClientHeadersOnSuccess) {
    }
}
