package io.tollgate.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class GatewayMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final GatewayMetrics metrics = new GatewayMetrics(registry);

    @Test
    void handsOutTheSameHandleForTheSameName() {
        ListenerMetrics listener = metrics.listener("http");

        assertThat(metrics.listener("http")).isSameAs(listener);
        assertThat(metrics.listener("other")).isNotSameAs(listener);
        assertThat(listener.route("r1")).isSameAs(listener.route("r1"));
        assertThat(metrics.cluster("c")).isSameAs(metrics.cluster("c"));
    }

    @Test
    void countsRequestsByStatusClassOnTheListenerAndTheRoute() {
        ListenerMetrics listener = metrics.listener("http");
        RouteMetrics route = listener.route("api");

        listener.request(route, 200, 1_000_000);
        listener.request(route, 204, 3_000_000);
        listener.request(route, 503, 2_000_000);
        listener.request(null, 404, 5_000_000);

        assertThat(downstream("2xx")).isEqualTo(2);
        assertThat(downstream("5xx")).isEqualTo(1);
        assertThat(downstream("4xx")).isEqualTo(1);
        assertThat(registry.get(MetricNames.ROUTE_RQ).tags("listener", "http", "route", "api", "status_class", "2xx")
                .counter().count()).isEqualTo(2);
        assertThat(registry.get(MetricNames.ROUTE_RQ).tags("route", "api", "status_class", "4xx")
                .counter().count()).isZero();
        Timer time = registry.get(MetricNames.ROUTE_RQ_TIME).tags("listener", "http", "route", "api").timer();
        assertThat(time.count()).as("the routed requests timed, the unrouted one not").isEqualTo(3);
        assertThat(time.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(6);
    }

    @Test
    void countsRpcRequestsByServiceAndMethodUpToABoundThenAsOther() {
        ListenerMetrics listener = metrics.listener("bolt");
        listener.rpcMethod("echo:1.0", "say").request(200);
        listener.rpcMethod("echo:1.0", "say").request(500);
        listener.rpcMethod(null, null).request(200);
        for (int i = 0; i < ListenerMetrics.MAX_RPC_METHODS + 5; i++) {
            listener.rpcMethod("made.up." + i, "m").request(200);
        }

        assertThat(rpc("echo:1.0", "say", "2xx")).isEqualTo(1);
        assertThat(rpc("echo:1.0", "say", "5xx")).isEqualTo(1);
        assertThat(rpc("-", "-", "2xx")).isEqualTo(1);
        assertThat(rpc("_other", "_other", "2xx")).isEqualTo(7);
        assertThat(registry.find(MetricNames.RPC_RQ).tag("status_class", "2xx").counters())
                .hasSize(ListenerMetrics.MAX_RPC_METHODS + 1);
    }

    @Test
    void countsAStatusOutsideTheKnownClassesAsServerError() {
        ListenerMetrics listener = metrics.listener("http");

        listener.request(null, 0, 0);
        listener.request(null, 999, 0);

        assertThat(downstream("5xx")).isEqualTo(2);
    }

    @Test
    void tracksOpenAndAcceptedConnections() {
        ListenerMetrics listener = metrics.listener("http");

        listener.connectionOpened();
        listener.connectionOpened();
        listener.connectionClosed();

        assertThat(registry.get(MetricNames.DOWNSTREAM_CX_ACTIVE).tag("listener", "http").gauge().value()).isEqualTo(1);
        assertThat(registry.get(MetricNames.DOWNSTREAM_CX_TOTAL).tag("listener", "http").counter().count()).isEqualTo(2);
    }

    @Test
    void countsDownstreamErrorsByReason() {
        ListenerMetrics listener = metrics.listener("http");

        listener.error("bad_request");
        listener.error("bad_request");
        listener.error("smuggling");

        assertThat(registry.get(MetricNames.DOWNSTREAM_RQ_ERROR).tags("listener", "http", "reason", "bad_request")
                .counter().count()).isEqualTo(2);
        assertThat(registry.get(MetricNames.DOWNSTREAM_RQ_ERROR).tags("reason", "smuggling")
                .counter().count()).isEqualTo(1);
    }

    @Test
    void recordsUpstreamResponsesTimesAndFailures() {
        ClusterMetrics cluster = metrics.cluster("backend");

        cluster.connectionOpened();
        cluster.requestCompleted(200, TimeUnit.MILLISECONDS.toNanos(5));
        cluster.requestCompleted(502, TimeUnit.MILLISECONDS.toNanos(15));
        cluster.connectFailure();
        cluster.poolOverflow();
        cluster.timeout();
        cluster.reset();
        cluster.noHealthyHost();

        assertThat(registry.get(MetricNames.UPSTREAM_RQ).tags("cluster", "backend", "status_class", "2xx")
                .counter().count()).isEqualTo(1);
        assertThat(registry.get(MetricNames.UPSTREAM_RQ_TIME).tag("cluster", "backend").timer().count()).isEqualTo(2);
        assertThat(registry.get(MetricNames.UPSTREAM_RQ_TIME).timer().totalTime(TimeUnit.MILLISECONDS)).isEqualTo(20);
        assertThat(registry.get(MetricNames.UPSTREAM_CX_ACTIVE).gauge().value()).isEqualTo(1);
        for (String name : List.of(MetricNames.UPSTREAM_CX_TOTAL, MetricNames.UPSTREAM_CX_CONNECT_FAIL,
                MetricNames.UPSTREAM_RQ_PENDING_OVERFLOW, MetricNames.UPSTREAM_RQ_TIMEOUT,
                MetricNames.UPSTREAM_RQ_RESET, MetricNames.UPSTREAM_CX_NONE_HEALTHY)) {
            assertThat(registry.get(name).tag("cluster", "backend").counter().count()).as(name).isEqualTo(1);
        }
    }

    @Test
    void losesNoCountWhenSeveralThreadsCountAtOnce() throws Exception {
        int threads = 4;
        int perThread = 10_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    ListenerMetrics listener = metrics.listener("http");
                    for (int i = 0; i < perThread; i++) {
                        listener.connectionOpened();
                        listener.request(listener.route("r"), 200, 1000);
                        listener.connectionClosed();
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(downstream("2xx")).isEqualTo(threads * perThread);
        assertThat(registry.get(MetricNames.ROUTE_RQ).tags("route", "r", "status_class", "2xx").counter().count())
                .isEqualTo(threads * perThread);
        assertThat(registry.get(MetricNames.DOWNSTREAM_CX_ACTIVE).gauge().value()).isZero();
    }

    private double downstream(String statusClass) {
        return registry.get(MetricNames.DOWNSTREAM_RQ).tags("listener", "http", "status_class", statusClass)
                .counter().count();
    }

    private double rpc(String service, String method, String statusClass) {
        return registry.get(MetricNames.RPC_RQ)
                .tags("listener", "bolt", "service", service, "method", method, "status_class", statusClass)
                .counter().count();
    }
}
