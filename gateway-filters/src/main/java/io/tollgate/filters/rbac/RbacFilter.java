package io.tollgate.filters.rbac;

import io.micrometer.core.instrument.Counter;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.FilterStatus;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterContext;
import io.tollgate.core.metrics.MetricNames;
import io.tollgate.filters.FilterCounters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Allows or refuses each request by its chain's policies before it goes on: refused requests are
 * answered 403, gRPC PERMISSION_DENIED (7) in trailers-only form, or the RPC protocol's error
 * status with the caller's id; in shadow mode they are only counted. Stateless apart from its
 * counters, so one instance serves every event loop.
 */
final class RbacFilter implements StreamFilter {

    /** The reason refused requests are counted under and answered with. */
    static final String REASON = "rbac_access_denied";
    private static final int GRPC_PERMISSION_DENIED = 7;
    private static final Logger log = LoggerFactory.getLogger(RbacFilter.class);

    private final boolean allowAction;
    private final RbacPolicy[] policies;
    private final boolean shadow;
    private final Counter allowed;
    private final Counter denied;
    private final Counter shadowDenied;

    RbacFilter(RbacSettings settings, FilterScope scope) {
        this.allowAction = settings.action() == RbacSettings.Action.ALLOW;
        this.policies = settings.policies().toArray(new RbacPolicy[0]);
        this.shadow = settings.shadow();
        this.allowed = FilterCounters.counter(scope, MetricNames.FILTER_RBAC_ALLOWED);
        this.denied = FilterCounters.counter(scope, MetricNames.FILTER_RBAC_DENIED);
        this.shadowDenied = FilterCounters.counter(scope, MetricNames.FILTER_RBAC_SHADOW_DENIED);
    }

    @Override
    public FilterStatus onRequest(StreamFilterContext context) {
        RbacPolicy matched = firstMatch(context);
        if (allowAction == (matched != null)) {
            allowed.increment();
            return FilterStatus.CONTINUE;
        }
        if (log.isDebugEnabled()) {
            log.debug("listener {} route {}: {} {} from {} {} by {}", context.listenerName(), context.routeName(),
                    context.method(), context.request().path(), context.clientAddress(),
                    shadow ? "would be refused (shadow)" : "refused",
                    matched == null ? "no allowing policy" : "policy " + matched.name());
        }
        if (shadow) {
            shadowDenied.increment();
            return FilterStatus.CONTINUE;
        }
        denied.increment();
        context.respond(403, GRPC_PERMISSION_DENIED, REASON);
        return FilterStatus.CONTINUE;
    }

    private RbacPolicy firstMatch(StreamFilterContext request) {
        for (RbacPolicy policy : policies) {
            if (policy.matches(request)) {
                return policy;
            }
        }
        return null;
    }
}
