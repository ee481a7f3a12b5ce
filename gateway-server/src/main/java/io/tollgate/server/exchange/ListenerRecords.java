package io.tollgate.server.exchange;

import io.tollgate.core.accesslog.AccessLogSink;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.core.metrics.ListenerMetrics;

/**
 * Where the records of one listener's exchanges go, whatever the protocol: the listener's meters,
 * the process's cluster meters, and the listener's access log.
 *
 * @param accessLog the listener's access log, or null for none
 */
public record ListenerRecords(String listenerName, ListenerMetrics listenerMetrics, GatewayMetrics metrics,
        AccessLogSink accessLog) {

    /** The records of listener {@code listenerName}. */
    public static ListenerRecords of(String listenerName, GatewayMetrics metrics, AccessLogSink accessLog) {
        return new ListenerRecords(listenerName, metrics.listener(listenerName), metrics, accessLog);
    }
}
