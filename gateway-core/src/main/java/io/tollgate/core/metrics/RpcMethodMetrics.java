package io.tollgate.core.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The request counters of one RPC service and method on one listener (Bolt today), so that a
 * dashboard can tell which method of which service fails; handed out by
 * {@link ListenerMetrics#rpcMethod(String, String)}.
 */
public final class RpcMethodMetrics {

    private final StatusClassCounters requests;

    RpcMethodMetrics(MeterRegistry registry, Tags tags) {
        this.requests = new StatusClassCounters(registry, MetricNames.RPC_RQ, tags);
    }

    /** Counts one answered request by the class of its HTTP-meaning {@code status}. */
    public void request(int status) {
        requests.count(status);
    }
}
