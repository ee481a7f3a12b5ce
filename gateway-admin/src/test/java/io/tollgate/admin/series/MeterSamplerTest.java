package io.tollgate.admin.series;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tollgate.core.metrics.ClusterMetrics;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.core.metrics.ListenerMetrics;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The sampler turns the gateway's own meters (as the proxy counts them) into each second's rates
 * and upstream-time quantiles, read from the Prometheus registry's histogram buckets.
 */
class MeterSamplerTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final GatewayMetrics metrics = new GatewayMetrics(registry);
    private final MeterSampler sampler = new MeterSampler(registry);

    @Test
    void eachSampleHoldsWhatWasCountedSinceThePreviousOne() {
        ListenerMetrics listener = metrics.listener("http");
        ClusterMetrics cluster = metrics.cluster("web");
        listener.request(listener.route("api"), 200, TimeUnit.MILLISECONDS.toNanos(1));
        cluster.requestCompleted(200, TimeUnit.MILLISECONDS.toNanos(1));
        Sample first = sampler.sample(1000);
        assertThat(value(first, "rq")).as("nothing is known before the first sample").isZero();

        for (int i = 0; i < 10; i++) {
            listener.request(listener.route("api"), 200, TimeUnit.MILLISECONDS.toNanos(20));
        }
        listener.request(listener.route("api"), 503, TimeUnit.MILLISECONDS.toNanos(700));
        listener.request(null, 404, 0);
        listener.error("no_route");
        for (int i = 0; i < 98; i++) {
            cluster.requestCompleted(200, TimeUnit.MILLISECONDS.toNanos(5));
        }
        cluster.requestCompleted(200, TimeUnit.MILLISECONDS.toNanos(300));
        cluster.requestCompleted(200, TimeUnit.MILLISECONDS.toNanos(300));
        Sample second = sampler.sample(2000);

        assertThat(value(second, "rq")).isEqualTo(12);
        assertThat(value(second, "rq_4xx")).isEqualTo(1);
        assertThat(value(second, "rq_5xx")).isEqualTo(1);
        assertThat(value(second, "rq_error")).isEqualTo(1);
        // buckets around 5 ms and 300 ms: the quantiles land in them, not on the first second's 1 ms
        assertThat(value(second, "p50_ms")).isBetween(4.0, 6.0);
        assertThat(value(second, "p99_ms")).isBetween(250.0, 360.0);
        assertThat(second.breakdown().at("/routes/http/api/rq").asDouble()).isEqualTo(11);
        assertThat(second.breakdown().at("/routes/http/api/rq_5xx").asDouble()).isEqualTo(1);
        // the route's own time, not its cluster's: ten of 20 ms and one of 700 ms
        assertThat(second.breakdown().at("/routes/http/api/p50_ms").asDouble()).isBetween(15.0, 25.0);
        assertThat(second.breakdown().at("/routes/http/api/p99_ms").asDouble()).isBetween(600.0, 800.0);
        assertThat(second.breakdown().at("/clusters/web/rq").asDouble()).isEqualTo(100);
        assertThat(second.breakdown().at("/listeners/http/rq").asDouble()).isEqualTo(12);

        Sample idle = sampler.sample(3000);
        assertThat(value(idle, "rq")).isZero();
        assertThat(value(idle, "p99_ms")).as("no request, no quantile").isNaN();
        assertThat(idle.toJson().get("p99_ms").isNull()).isTrue();
        assertThat(idle.breakdown().at("/routes/http/api/p99_ms").isNull()).as("no request of the route").isTrue();
    }

    @Test
    void theRingKeepsTheNewestSamplesOldestFirst() {
        SeriesRing ring = new SeriesRing(3);
        for (int i = 1; i <= 5; i++) {
            metrics.listener("http").request(null, 200, 0);
            ring.add(sampler.sample(i * 1000L));
        }
        var json = ring.toJson();
        assertThat(json.get("time").toString()).isEqualTo("[3000,4000,5000]");
        assertThat(json.at("/series/rq").toString()).isEqualTo("[1.0,1.0,1.0]");
        assertThat(json.at("/series/p50_ms").toString()).isEqualTo("[null,null,null]");
    }

    private static double value(Sample sample, String name) {
        return sample.values()[Sample.NAMES.indexOf(name)];
    }
}
