package io.tollgate.filters.grpcservice;

import io.micrometer.core.instrument.Counter;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.filters.FilterCounters;

/**
 * The counters of a filter that asks a policy service, named as Envoy names its {@code ext_authz}
 * and {@code ratelimit} statistics: {@code <prefix>.ok}, the refusal's ({@code denied},
 * {@code over_limit}), {@code error} (every failed call, timeouts included), {@code timeout} and
 * {@code failure_mode_allowed}, tagged by the chain's listener and route.
 */
public final class PolicyCounters {

    private final Counter ok;
    private final Counter refused;
    private final Counter error;
    private final Counter timeout;
    private final Counter failureModeAllowed;

    /**
     * @param prefix the counters' common name, e.g. {@code tollgate.filter.ext_authz}
     * @param refusal the last part of the refusals' counter, e.g. {@code denied}
     */
    public PolicyCounters(FilterScope scope, String prefix, String refusal) {
        this.ok = FilterCounters.counter(scope, prefix + ".ok");
        this.refused = FilterCounters.counter(scope, prefix + "." + refusal);
        this.error = FilterCounters.counter(scope, prefix + ".error");
        this.timeout = FilterCounters.counter(scope, prefix + ".timeout");
        this.failureModeAllowed = FilterCounters.counter(scope, prefix + ".failure_mode_allowed");
    }

    /** The service let a request through. */
    public void ok() {
        ok.increment();
    }

    /** The service refused a request. */
    public void refused() {
        refused.increment();
    }

    /** A call failed; {@code timedOut} when it passed its deadline. */
    public void failed(boolean timedOut) {
        error.increment();
        if (timedOut) {
            timeout.increment();
        }
    }

    /** A request went on although its call failed. */
    public void failureModeAllowed() {
        failureModeAllowed.increment();
    }
}
