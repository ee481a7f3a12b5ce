package io.tollgate.filters.extauth;

import java.util.List;

/**
 * What the authorization service decided about one request, whichever way it was asked.
 *
 * @param verdict allowed, denied, or no answer
 * @param status the HTTP status a denial answers with (0: the filter's default)
 * @param upstream the headers to set on the request before it goes on
 * @param upstreamRemoved the request headers to remove before it goes on
 * @param client the headers to set on the response to the client (the denial, or the upstream's answer)
 * @param body the body a denial answers an HTTP client with, or null for the gateway's own text
 */
record AuthzDecision(Verdict verdict, int status, List<HeaderChange> upstream, List<String> upstreamRemoved,
        List<HeaderChange> client, String body) {

    /** The service's word, or why there is none. */
    enum Verdict {
        ALLOWED,
        DENIED,
        /** The call failed: unreachable, refused, an error status, an answer that makes no sense. */
        ERROR,
        /** The call passed its timeout. */
        TIMEOUT
    }

    /** A failed or timed-out check: no verdict and nothing to change. */
    static AuthzDecision failed(Verdict verdict) {
        return new AuthzDecision(verdict, 0, List.of(), List.of(), List.of(), null);
    }
}
