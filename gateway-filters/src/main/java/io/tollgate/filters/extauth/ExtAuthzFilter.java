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
import io.tollgate.filters.grpcservice.PolicyCounters;
import java.util.List;

/**
 * Holds each request until the authorization service answers: an allowed request goes on with the
 * headers the service set (and its answer gets those the service asked for the client); a denied
 * one is answered with the service's status (403 by default) in the caller's protocol (HTTP
 * status, the gRPC status matching it, a Bolt or Dubbo error status with the caller's id) and the
 * service's headers, and an HTTP client gets the service's body when it gave one; a check that fails or passes its timeout lets the request through under
 * {@code failure_mode_allow}, else refuses it with {@code status_on_error}. Counted as Envoy
 * counts: ok, denied, error (timeouts included), timeout, failure_mode_allowed. One instance per
 * chain; what a request needs is kept in its context.
 */
final class ExtAuthzFilter implements StreamFilter {

    /** The reason a denial is counted under and answered with. */
    static final String DENIED_REASON = "ext_authz_denied";
    /** The reason a refusal for a failed check is answered with. */
    static final String ERROR_REASON = "ext_authz_error";
    /** The reason a body longer than {@code max_request_bytes} is refused with (413) when partial bodies are not allowed. */
    static final String TOO_LARGE_REASON = "ext_authz_body_too_large";
    private static final int DEFAULT_DENIED_STATUS = 403;

    private final AuthzService service;
    private final ExtAuthzSettings settings;
    private final PolicyCounters counters;
    private final Counter tooLarge;

    ExtAuthzFilter(ExtAuthzSettings settings, AuthzService service, FilterScope scope) {
        this.settings = settings;
        this.service = service;
        this.counters = new PolicyCounters(scope, "tollgate.filter.ext_authz", "denied");
        this.tooLarge = FilterCounters.counter(scope, "tollgate.filter.ext_authz.body_too_large");
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
        ExtAuthzSettings.BodySettings body = settings.withRequestBody();
        if (body == null || context.rpc()) {
            check(context, pending, null);
        } else {
            context.readRequestBody(body.maxRequestBytes(), (bytes, whole) -> bodyRead(context, pending, bytes, whole));
        }
        return pending.decided ? FilterStatus.CONTINUE : FilterStatus.STOP;
    }

    /** The held request's body arrived (up to the limit): refused when too long and no partial body may be checked. */
    private void bodyRead(StreamFilterContext context, Pending pending, byte[] bytes, boolean whole) {
        if (pending.decided) {
            return;
        }
        if (!whole && !settings.withRequestBody().allowPartialMessage()) {
            pending.decided = true;
            tooLarge.increment();
            context.flag(ResponseFlag.UNAUTHORIZED_EXTERNAL_SERVICE);
            context.respond(413, TOO_LARGE_REASON);
            return;
        }
        check(context, pending, new AuthzService.CheckedBody(bytes, !whole));
    }

    private void check(StreamFilterContext context, Pending pending, AuthzService.CheckedBody body) {
        pending.cancel = service.check(context, body, decision -> decided(context, pending, decision));
    }

    private void decided(StreamFilterContext context, Pending pending, AuthzDecision decision) {
        pending.decided = true;
        pending.clientHeaders = context.grpc() ? withoutContentType(decision.client()) : decision.client();
        switch (decision.verdict()) {
            case ALLOWED -> {
                counters.ok();
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
                counters.refused();
                context.flag(ResponseFlag.UNAUTHORIZED_EXTERNAL_SERVICE);
                int status = decision.status() == 0 ? DEFAULT_DENIED_STATUS : decision.status();
                if (decision.body() == null) {
                    context.respond(status, DENIED_REASON);
                } else {
                    context.respond(status, DENIED_REASON, decision.body());
                }
            }
            default -> {
                counters.failed(decision.verdict() == AuthzDecision.Verdict.TIMEOUT);
                if (settings.failureModeAllow()) {
                    counters.failureModeAllowed();
                    context.resume();
                } else {
                    context.flag(ResponseFlag.UNAUTHORIZED_EXTERNAL_SERVICE);
                    context.respond(settings.statusOnError(), ERROR_REASON);
                }
            }
        }
    }

    /** The changes but those of {@code content-type}, which a gRPC answer must keep (its client refuses any other). */
    private static List<HeaderChange> withoutContentType(List<HeaderChange> changes) {
        return changes.stream().filter(c -> !c.name().equals("content-type")).toList();
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
            if (pending.cancel != null) {
                pending.cancel.run();
            }
        }
    }
}
