package io.tollgate.filters.extauth;

import io.micrometer.core.instrument.Counter;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.filter.FilterResponse;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.FilterStatus;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterContext;
import io.tollgate.filters.FilterCounters;
import java.util.List;

/**
 * Holds each request until the authorization service answers: an allowed request goes on with the
 * headers the service set (and its answer gets those the service asked for the client); a denied
 * one is answered with the service's status (403 by default) in the caller's protocol (HTTP
 * status, the gRPC status matching it, a Bolt or Dubbo error status with the caller's id) and the
 * service's headers; a check that fails or passes its timeout lets the request through under
 * {@code failure_mode_allow}, else refuses it with {@code status_on_error}. Counted as Envoy
 * counts: ok, denied, error (timeouts included), timeout, failure_mode_allowed. One instance per
 * chain; what a request needs is kept in its context.
 */
final class ExtAuthzFilter implements StreamFilter {

    static final String OK = "tollgate.filter.ext_authz.ok";
    static final String DENIED = "tollgate.filter.ext_authz.denied";
    static final String ERROR = "tollgate.filter.ext_authz.error";
    static final String TIMEOUT = "tollgate.filter.ext_authz.timeout";
    static final String FAILURE_MODE_ALLOWED = "tollgate.filter.ext_authz.failure_mode_allowed";
    /** The reason a denial is counted under and answered with. */
    static final String DENIED_REASON = "ext_authz_denied";
    /** The reason a refusal for a failed check is answered with. */
    static final String ERROR_REASON = "ext_authz_error";
    private static final int DEFAULT_DENIED_STATUS = 403;

    private final AuthzService service;
    private final ExtAuthzSettings settings;
    private final Counter ok;
    private final Counter denied;
    private final Counter error;
    private final Counter timeout;
    private final Counter failureModeAllowed;

    ExtAuthzFilter(ExtAuthzSettings settings, AuthzService service, FilterScope scope) {
        this.settings = settings;
        this.service = service;
        this.ok = FilterCounters.counter(scope, OK);
        this.denied = FilterCounters.counter(scope, DENIED);
        this.error = FilterCounters.counter(scope, ERROR);
        this.timeout = FilterCounters.counter(scope, TIMEOUT);
        this.failureModeAllowed = FilterCounters.counter(scope, FAILURE_MODE_ALLOWED);
    }

    /** What one request is waiting for, then what its answer to the client gets. */
    private static final class Pending {
        Runnable cancel;
        boolean decided;
        List<HeaderChange> clientHeaders = List.of();
    }

    @Override
    public FilterStatus onRequest(StreamFilterContext context) {
        Pending pending = new Pending();
        context.state(this, pending);
        pending.cancel = service.check(context, decision -> decided(context, pending, decision));
        return pending.decided ? FilterStatus.CONTINUE : FilterStatus.STOP;
    }

    private void decided(StreamFilterContext context, Pending pending, AuthzDecision decision) {
        pending.decided = true;
        pending.clientHeaders = decision.client();
        switch (decision.verdict()) {
            case ALLOWED -> {
                ok.increment();
                FilterHeaders headers = context.requestHeaders();
                if (headers.writable()) {
                    for (String name : decision.upstreamRemoved()) {
                        headers.remove(name);
                    }
                    for (HeaderChange change : decision.upstream()) {
                        change.apply(headers, context.rpc());
                    }
                }
                context.resume();
            }
            case DENIED -> {
                denied.increment();
                context.flag(ResponseFlag.UNAUTHORIZED_EXTERNAL_SERVICE);
                context.respond(decision.status() == 0 ? DEFAULT_DENIED_STATUS : decision.status(), DENIED_REASON);
            }
            default -> {
                error.increment();
                if (decision.verdict() == AuthzDecision.Verdict.TIMEOUT) {
                    timeout.increment();
                }
                if (settings.failureModeAllow()) {
                    failureModeAllowed.increment();
                    context.resume();
                } else {
                    context.flag(ResponseFlag.UNAUTHORIZED_EXTERNAL_SERVICE);
                    context.respond(settings.statusOnError(), ERROR_REASON);
                }
            }
        }
    }

    @Override
    public void onResponse(StreamFilterContext context, FilterResponse response) {
        if (context.state(this) instanceof Pending pending && !pending.clientHeaders.isEmpty()
                && response.headers().writable()) {
            for (HeaderChange change : pending.clientHeaders) {
                change.apply(response.headers(), false);
            }
        }
    }

    @Override
    public void onComplete(StreamFilterContext context, int status) {
        if (context.state(this) instanceof Pending pending && !pending.decided) {
            pending.decided = true;
            pending.cancel.run();
        }
    }
}
