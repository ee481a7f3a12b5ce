package io.tollgate.core.metrics;

/**
 * The name of every meter and tag the gateway publishes, in one place so that dashboards, the
 * admin API documentation ({@code docs/admin.md}) and the code cannot drift apart.
 *
 * <p>Names follow Envoy's statistics with a {@code tollgate.} prefix and Micrometer's dots;
 * the Prometheus scrape shows them with underscores, counters with a {@code _total} suffix and
 * timers in seconds ({@code tollgate.upstream.rq.time} becomes
 * {@code tollgate_upstream_rq_time_seconds}).
 */
public final class MetricNames {

    /** Tag: the listener a downstream meter belongs to. */
    public static final String TAG_LISTENER = "listener";
    /** Tag: the route a request matched. */
    public static final String TAG_ROUTE = "route";
    /** Tag: the upstream cluster. */
    public static final String TAG_CLUSTER = "cluster";
    /** Tag: the class of a response status, {@code 1xx} to {@code 5xx}. */
    public static final String TAG_STATUS_CLASS = "status_class";
    /** Tag: the RPC service a request named, e.g. Bolt's {@code service} header. */
    public static final String TAG_SERVICE = "service";
    /** Tag: the RPC method a request named, e.g. Bolt's {@code sofa_head_method_name} header. */
    public static final String TAG_METHOD = "method";
    /** Tag: why a downstream request failed, e.g. {@code bad_request}. */
    public static final String TAG_REASON = "reason";

    /** Tag: which side of the gateway a connection is on, {@code downstream} or {@code upstream}. */
    public static final String TAG_SIDE = "side";
    /** Tag: what kind of error, e.g. {@code peer_reset} or {@code unexpected}. */
    public static final String TAG_KIND = "kind";
    /** Tag: how an operation ended, e.g. {@code success} or {@code failure}. */
    public static final String TAG_RESULT = "result";

    /** Counter: configuration reloads, by result ({@code success} or {@code failure}). */
    public static final String CONFIG_RELOAD = "tollgate.config.reload";
    /** Gauge: the version of the configuration being served: 1 at start, one more per applied reload. */
    public static final String CONFIG_VERSION = "tollgate.config.version";

    /** Counter: xDS responses from the control plane, by resource {@code type} and result ({@code ack} or {@code nack}). */
    public static final String XDS_RESPONSE = "tollgate.xds.response";
    /** Timer: from the receipt of an accepted xDS response to its configuration applied, by resource {@code type}. */
    public static final String XDS_UPDATE_DURATION = "tollgate.xds.update.duration";
    /** Counter: xDS streams to the control plane that ended (each is followed by a reconnection). */
    public static final String XDS_STREAM_ENDED = "tollgate.xds.stream.ended";
    /** Tag: the kind of an xDS resource, e.g. {@code Cluster}. */
    public static final String TAG_TYPE = "type";

    /** Gauge: open downstream connections of a listener. */
    public static final String DOWNSTREAM_CX_ACTIVE = "tollgate.downstream.cx.active";
    /** Counter: downstream connections a listener accepted. */
    public static final String DOWNSTREAM_CX_TOTAL = "tollgate.downstream.cx.total";
    /**
     * Counter: downstream connections the gateway closed before or instead of serving them, by
     * listener and reason ({@code max_connections}, {@code process_max_connections},
     * {@code overload}, {@code detection_timeout}, {@code detection_bytes}, {@code first_frame_timeout}).
     */
    public static final String DOWNSTREAM_CX_REJECTED = "tollgate.downstream.cx.rejected";
    /**
     * Counter: connections of a listener with {@code proxy_protocol}, by listener and result:
     * {@code v1} or {@code v2} (a header carried the client's address), {@code local} (a v2
     * {@code LOCAL} header, the balancer's own check), {@code unknown} (a header without an IP
     * address), {@code absent} (optional, none sent) or {@code untrusted} (optional, a source
     * outside {@code trusted_sources}, not looked at). Refused connections count under
     * {@link #DOWNSTREAM_CX_REJECTED} with reasons {@code proxy_protocol_*}.
     */
    public static final String DOWNSTREAM_CX_PROXY_PROTOCOL = "tollgate.downstream.cx.proxy_protocol";
    /**
     * Counter: errors that ended a connection, by side and kind: {@code peer_reset} (an I/O error:
     * the peer reset or closed the socket) or {@code unexpected} (a failure in the gateway's own
     * handlers, logged at WARN).
     */
    public static final String CONNECTION_ERROR = "tollgate.connection.error";
    /** Gauge: 1 while the overload guard sheds load (heap or descriptors past their threshold), else 0. */
    public static final String OVERLOAD_ACTIVE = "tollgate.overload.active";
    /**
     * Timer with fixed buckets: how late each event loop ran its periodic probe task, by
     * {@code loop}: the time a task (an I/O event, a timeout) waits there before it runs.
     */
    public static final String EVENT_LOOP_DELAY = "tollgate.event_loop.delay";
    /** Gauge: the largest {@link #EVENT_LOOP_DELAY} of a loop since the process started, by {@code loop}. */
    public static final String EVENT_LOOP_DELAY_PEAK = "tollgate.event_loop.delay.peak";
    /** Tag: an I/O event loop, by its index from 0. */
    public static final String TAG_LOOP = "loop";
    /**
     * Counter: downstream connections that closed on their own terms during a drain (their last
     * request answered, or idle), by listener.
     */
    public static final String DOWNSTREAM_CX_DRAIN_CLOSE = "tollgate.downstream.cx.drain_close";
    /** Counter: downstream connections a drain closed at its timeout (or when it was ended at once), by listener. */
    public static final String DOWNSTREAM_CX_DRAIN_TIMEOUT = "tollgate.downstream.cx.drain_timeout";
    /**
     * Gauge: the process's state as Envoy numbers it: 0 live, 1 draining (or failing health checks
     * on request), 2 pre-initializing, 3 initializing (waiting for the first xDS configuration).
     */
    public static final String SERVER_STATE = "tollgate.server.state";
    /** Counter: drains started, by trigger ({@code sigterm}, {@code quitquitquit}, {@code listener_removed} ...). */
    public static final String SERVER_DRAIN_STARTED = "tollgate.server.drain.started";
    /**
     * Counter: drains ended, by trigger and result: {@code drained} (nothing left in flight),
     * {@code timeout} (the rest closed at the drain timeout) or {@code ended} (ended at once on request).
     */
    public static final String SERVER_DRAIN_COMPLETED = "tollgate.server.drain.completed";
    /** Tag: what started a drain. */
    public static final String TAG_TRIGGER = "trigger";
    /** Counter: downstream requests answered, by listener and status class. */
    public static final String DOWNSTREAM_RQ = "tollgate.downstream.rq";
    /** Counter: downstream requests rejected or failed, by listener and reason. */
    public static final String DOWNSTREAM_RQ_ERROR = "tollgate.downstream.rq.error";
    /** Counter: requests answered per route, by listener, route and status class. */
    public static final String ROUTE_RQ = "tollgate.route.rq";
    /** Timer: how long requests of a route took, from the request's start to its end, by listener and route. */
    public static final String ROUTE_RQ_TIME = "tollgate.route.rq.time";
    /** Counter: routed RPC requests answered, by listener, service, method and status class. */
    public static final String RPC_RQ = "tollgate.rpc.rq";

    /** Gauge: open upstream connections of a cluster. */
    public static final String UPSTREAM_CX_ACTIVE = "tollgate.upstream.cx.active";
    /** Counter: upstream connections opened to a cluster. */
    public static final String UPSTREAM_CX_TOTAL = "tollgate.upstream.cx.total";
    /** Counter: upstream connection attempts that failed or timed out. */
    public static final String UPSTREAM_CX_CONNECT_FAIL = "tollgate.upstream.cx.connect_fail";
    /** Counter: requests refused because the cluster had no healthy host. */
    public static final String UPSTREAM_CX_NONE_HEALTHY = "tollgate.upstream.cx.none_healthy";
    /** Counter: requests refused because the connection pool's pending queue was full. */
    public static final String UPSTREAM_RQ_PENDING_OVERFLOW = "tollgate.upstream.rq.pending_overflow";
    /** Counter: connections not opened because the cluster's max_connections breaker was reached. */
    public static final String UPSTREAM_CX_OVERFLOW = "tollgate.upstream.cx.overflow";
    /** Counter: requests refused because the cluster's max_requests breaker was reached. */
    public static final String UPSTREAM_RQ_OVERFLOW = "tollgate.upstream.rq.overflow";
    /** Counter: retries made (each attempt after the first). */
    public static final String UPSTREAM_RQ_RETRY = "tollgate.upstream.rq.retry";
    /**
     * Counter: requests moved to another host with nothing sent (their connection never opened,
     * their write failed, or their host's death was learned while they waited); not retries.
     */
    public static final String UPSTREAM_RQ_REDISPATCH = "tollgate.upstream.rq.redispatch";
    /**
     * Counter: times an event loop's pool learned that its host died (a connect failure, or a
     * connection lost before any answer started), closed its other idle connections and moved its
     * waiting requests to another host.
     */
    public static final String UPSTREAM_CX_HOST_DOWN = "tollgate.upstream.cx.host_down";
    /** Counter: retries not made because the retry budget or the max_retries breaker was reached. */
    public static final String UPSTREAM_RQ_RETRY_OVERFLOW = "tollgate.upstream.rq.retry_overflow";
    /** Counter: retries whose answer was good enough not to be retried again. */
    public static final String UPSTREAM_RQ_RETRY_SUCCESS = "tollgate.upstream.rq.retry_success";
    /** Counter: requests that failed again after their last allowed retry. */
    public static final String UPSTREAM_RQ_RETRY_LIMIT_EXCEEDED = "tollgate.upstream.rq.retry_limit_exceeded";
    /** Counter: upstream requests that hit the route timeout. */
    public static final String UPSTREAM_RQ_TIMEOUT = "tollgate.upstream.rq.timeout";
    /** Counter: upstream requests whose connection was reset or closed before the response ended. */
    public static final String UPSTREAM_RQ_RESET = "tollgate.upstream.rq.reset";
    /** Counter: multiplexed responses that came after their request had ended (timed out, client gone) and were dropped. */
    public static final String UPSTREAM_RQ_LATE = "tollgate.upstream.rq.late";
    /** Counter: upstream responses, by cluster and status class. */
    public static final String UPSTREAM_RQ = "tollgate.upstream.rq";
    /** Timer with a percentile histogram: upstream request time, from sending to the last response byte. */
    public static final String UPSTREAM_RQ_TIME = "tollgate.upstream.rq.time";
    /** Counter: hosts ejected by outlier detection. */
    public static final String UPSTREAM_OUTLIER_EJECTIONS = "tollgate.upstream.outlier.ejections";
    /** Gauge: hosts ejected by outlier detection right now. */
    public static final String UPSTREAM_OUTLIER_EJECTED = "tollgate.upstream.outlier.ejected";
    /** Counter: ejections refused because max_ejection_percent of the hosts were already ejected. */
    public static final String UPSTREAM_OUTLIER_OVERFLOW = "tollgate.upstream.outlier.ejections_overflow";
    /** Counter: active health probes sent. */
    public static final String UPSTREAM_HEALTH_CHECK_ATTEMPT = "tollgate.upstream.health_check.attempt";
    /** Counter: active health probes that failed (refused, timed out or answered wrongly). */
    public static final String UPSTREAM_HEALTH_CHECK_FAILURE = "tollgate.upstream.health_check.failure";

    /** Counter: requests served by the subset their metadata names exactly. */
    public static final String UPSTREAM_LB_SUBSET_EXACT = "tollgate.upstream.lb.subset.exact";
    /** Counter: requests served by a selector's {@code fallback_keys_subset} subset. */
    public static final String UPSTREAM_LB_SUBSET_KEYS_FALLBACK = "tollgate.upstream.lb.subset.keys_subset_fallback";
    /** Counter: requests served by a fallback policy ({@code ANY_ENDPOINT} or {@code DEFAULT_SUBSET}). */
    public static final String UPSTREAM_LB_SUBSET_POLICY_FALLBACK = "tollgate.upstream.lb.subset.policy_fallback";
    /** Counter: requests for which subset load balancing left no host. */
    public static final String UPSTREAM_LB_SUBSET_NO_HOST = "tollgate.upstream.lb.subset.no_host";
    /** Counter: connections an {@code original_dst} cluster refused because they were not redirected (no loop back). */
    public static final String ORIGINAL_DST_NOT_REDIRECTED = "tollgate.upstream.original_dst.not_redirected";
    /** Counter: requests whose {@code x-envoy-original-dst-host} is not an IP address and port. */
    public static final String ORIGINAL_DST_BAD_HEADER = "tollgate.upstream.original_dst.bad_header";
    /** Counter: new destinations refused while an {@code original_dst} cluster held {@code max_hosts}. */
    public static final String ORIGINAL_DST_OVERFLOW = "tollgate.upstream.original_dst.overflow";
    /** Counter: destinations an {@code original_dst} cluster made hosts. */
    public static final String ORIGINAL_DST_HOSTS_MADE = "tollgate.upstream.original_dst.hosts_made";
    /** Counter: hosts an {@code original_dst} cluster dropped after their idle timeout. */
    public static final String ORIGINAL_DST_HOSTS_DROPPED = "tollgate.upstream.original_dst.hosts_dropped";

    /** Counter: requests the {@code rbac} filter let through, by listener and route (empty for the listener's own chain). */
    public static final String FILTER_RBAC_ALLOWED = "tollgate.filter.rbac.allowed";
    /** Counter: requests the {@code rbac} filter refused, by listener and route. */
    public static final String FILTER_RBAC_DENIED = "tollgate.filter.rbac.denied";
    /** Counter: requests a {@code shadow} {@code rbac} filter would have refused and let through, by listener and route. */
    public static final String FILTER_RBAC_SHADOW_DENIED = "tollgate.filter.rbac.shadow_denied";
    /** Counter: requests the {@code local_rate_limit} filter let through, by listener and route. */
    public static final String FILTER_LOCAL_RATE_LIMIT_ALLOWED = "tollgate.filter.local_rate_limit.allowed";
    /** Counter: requests the {@code local_rate_limit} filter refused for want of a token, by listener and route. */
    public static final String FILTER_LOCAL_RATE_LIMIT_LIMITED = "tollgate.filter.local_rate_limit.limited";
    /** Counter: copies the {@code mirror} filter's shadow cluster answered, by listener, route and shadow cluster. */
    public static final String FILTER_MIRROR_SENT = "tollgate.filter.mirror.sent";
    /** Counter: copies that got no answer (no host, breakers full, connect failed, reset, timed out), by listener, route and cluster. */
    public static final String FILTER_MIRROR_FAILED = "tollgate.filter.mirror.failed";
    /** Counter: copies not sent (body over the limit, request not forwarded), by listener, route and cluster. */
    public static final String FILTER_MIRROR_SKIPPED = "tollgate.filter.mirror.skipped";
    /** Counter: requests whose {@code Origin} the {@code cors} filter allowed, by listener and route. */
    public static final String FILTER_CORS_ORIGIN_VALID = "tollgate.filter.cors.origin_valid";
    /** Counter: requests whose {@code Origin} the {@code cors} filter did not allow, by listener and route. */
    public static final String FILTER_CORS_ORIGIN_INVALID = "tollgate.filter.cors.origin_invalid";

    /** Counter: connections the TCP proxy forwarded to an upstream host, by listener and cluster. */
    public static final String TCP_CX_TOTAL = "tollgate.tcp.cx.total";
    /** Gauge: connections the TCP proxy forwards now, by listener and cluster. */
    public static final String TCP_CX_ACTIVE = "tollgate.tcp.cx.active";
    /** Counter: TCP proxy connections whose bytes went on with {@code splice(2)} (option {@code splice}), by listener and cluster. */
    public static final String TCP_CX_SPLICED = "tollgate.tcp.cx.spliced";
    /** Counter: bytes the TCP proxy moved with {@code splice(2)}, both directions, by listener and cluster (part of rx and tx bytes). */
    public static final String TCP_SPLICED_BYTES = "tollgate.tcp.spliced_bytes";
    /** Counter: bytes the TCP proxy read from clients and sent upstream, by listener and cluster. */
    public static final String TCP_RX_BYTES = "tollgate.tcp.rx_bytes";
    /** Counter: bytes the TCP proxy read from upstream hosts and sent to clients, by listener and cluster. */
    public static final String TCP_TX_BYTES = "tollgate.tcp.tx_bytes";
    /**
     * Counter: TCP proxy connections closed without forwarding, by listener, cluster and reason
     * ({@code no_healthy_upstream}, {@code max_connections}, {@code connect_failure}, {@code no_cluster}).
     */
    public static final String TCP_CX_NO_UPSTREAM = "tollgate.tcp.cx.no_upstream";
    /** Counter: TCP proxy connections closed after {@code idle_timeout} without a byte either way. */
    public static final String TCP_IDLE_TIMEOUT = "tollgate.tcp.idle_timeout";

    private MetricNames() {
    }
}
