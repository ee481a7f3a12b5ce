package io.tollgate.admin.series;

import static io.tollgate.core.metrics.MetricNames.DOWNSTREAM_CX_ACTIVE;
import static io.tollgate.core.metrics.MetricNames.DOWNSTREAM_RQ;
import static io.tollgate.core.metrics.MetricNames.DOWNSTREAM_RQ_ERROR;
import static io.tollgate.core.metrics.MetricNames.ROUTE_RQ;
import static io.tollgate.core.metrics.MetricNames.ROUTE_RQ_TIME;
import static io.tollgate.core.metrics.MetricNames.TAG_CLUSTER;
import static io.tollgate.core.metrics.MetricNames.TAG_LISTENER;
import static io.tollgate.core.metrics.MetricNames.TAG_ROUTE;
import static io.tollgate.core.metrics.MetricNames.TAG_STATUS_CLASS;
import static io.tollgate.core.metrics.MetricNames.UPSTREAM_CX_ACTIVE;
import static io.tollgate.core.metrics.MetricNames.UPSTREAM_RQ;
import static io.tollgate.core.metrics.MetricNames.UPSTREAM_RQ_TIME;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the gateway's meters once a second and turns their totals into the rates and quantiles
 * of that second. It only reads what the event loops count (Micrometer counters, gauges and the
 * upstream and route timers' histograms), on the admin thread; the event loops do nothing more for it.
 */
public final class MeterSampler {

    private static final String ALL = "";
    private static final String SEP = "\u0000";

    private final MeterRegistry registry;
    private final Deltas downstream = new Deltas();
    private final Deltas errors = new Deltas();
    private final Deltas routes = new Deltas();
    private final Deltas upstream = new Deltas();
    private final HistogramDeltas times = new HistogramDeltas();
    private final HistogramDeltas routeTimes = new HistogramDeltas();

    public MeterSampler(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Reads the meters now; the first sample's rates are 0, as nothing is known before it. */
    public Sample sample(long epochMillis) {
        for (Counter c : registry.find(DOWNSTREAM_RQ).counters()) {
            String status = c.getId().getTag(TAG_STATUS_CLASS);
            String listener = c.getId().getTag(TAG_LISTENER);
            downstream.add(ALL, c.count());
            downstream.add(status, c.count());
            downstream.add(listener, c.count());
        }
        for (Counter c : registry.find(DOWNSTREAM_RQ_ERROR).counters()) {
            errors.add(ALL, c.count());
        }
        for (Counter c : registry.find(ROUTE_RQ).counters()) {
            String key = c.getId().getTag(TAG_LISTENER) + SEP + c.getId().getTag(TAG_ROUTE);
            routes.add(key, c.count());
            routes.add(key + SEP + c.getId().getTag(TAG_STATUS_CLASS), c.count());
        }
        for (Timer t : registry.find(ROUTE_RQ_TIME).timers()) {
            routeTimes.add(t.getId().getTag(TAG_LISTENER) + SEP + t.getId().getTag(TAG_ROUTE), t.takeSnapshot());
        }
        for (Counter c : registry.find(UPSTREAM_RQ).counters()) {
            String cluster = c.getId().getTag(TAG_CLUSTER);
            upstream.add(cluster, c.count());
            upstream.add(cluster + SEP + c.getId().getTag(TAG_STATUS_CLASS), c.count());
        }
        for (Timer t : registry.find(UPSTREAM_RQ_TIME).timers()) {
            var snapshot = t.takeSnapshot();
            times.add(ALL, snapshot);
            times.add(t.getId().getTag(TAG_CLUSTER), snapshot);
        }
        Map<String, Double> rq = downstream.endRound();
        Map<String, Double> failed = errors.endRound();
        Map<String, HistogramDeltas.Buckets> time = times.endRound();
        HistogramDeltas.Buckets all = time.getOrDefault(ALL, new HistogramDeltas.Buckets());
        double[] values = {
            rq.getOrDefault(ALL, 0.0),
            rq.getOrDefault("4xx", 0.0),
            rq.getOrDefault("5xx", 0.0),
            failed.getOrDefault(ALL, 0.0),
            all.quantileMillis(0.5),
            all.quantileMillis(0.99),
            gauges(DOWNSTREAM_CX_ACTIVE, null).getOrDefault(ALL, 0.0),
        };
        ObjectNode breakdown = JsonNodeFactory.instance.objectNode();
        listeners(breakdown.putObject("listeners"), rq);
        routes(breakdown.putObject("routes"), routes.endRound(), routeTimes.endRound());
        clusters(breakdown.putObject("clusters"), upstream.endRound(), time);
        return new Sample(epochMillis, values, breakdown);
    }

    private void listeners(ObjectNode json, Map<String, Double> rq) {
        Map<String, Double> connections = gauges(DOWNSTREAM_CX_ACTIVE, TAG_LISTENER);
        for (Map.Entry<String, Double> e : new TreeMap<>(connections).entrySet()) {
            if (!e.getKey().equals(ALL)) {
                ObjectNode listener = json.putObject(e.getKey());
                Sample.put(listener, "rq", rq.getOrDefault(e.getKey(), 0.0));
                Sample.put(listener, "cx_active", e.getValue());
            }
        }
    }

    /**
     * Each route's requests and those by status class per second, and the median and 99th
     * percentile of its requests' time in milliseconds (null in a second without requests).
     */
    private static void routes(ObjectNode json, Map<String, Double> rq, Map<String, HistogramDeltas.Buckets> time) {
        for (Map.Entry<String, Double> e : new TreeMap<>(rq).entrySet()) {
            String[] parts = e.getKey().split(SEP, -1);
            ObjectNode route = route(json, parts[0], parts[1]);
            Sample.put(route, parts.length == 2 ? "rq" : "rq_" + parts[2], e.getValue());
        }
        for (Map.Entry<String, HistogramDeltas.Buckets> e : new TreeMap<>(time).entrySet()) {
            String[] parts = e.getKey().split(SEP, -1);
            ObjectNode route = route(json, parts[0], parts[1]);
            Sample.put(route, "p50_ms", e.getValue().quantileMillis(0.5));
            Sample.put(route, "p99_ms", e.getValue().quantileMillis(0.99));
        }
    }

    private static ObjectNode route(ObjectNode json, String listenerName, String routeName) {
        ObjectNode listener = json.has(listenerName) ? (ObjectNode) json.get(listenerName) : json.putObject(listenerName);
        return listener.has(routeName) ? (ObjectNode) listener.get(routeName) : listener.putObject(routeName);
    }

    private void clusters(ObjectNode json, Map<String, Double> rq, Map<String, HistogramDeltas.Buckets> time) {
        Map<String, Double> connections = gauges(UPSTREAM_CX_ACTIVE, TAG_CLUSTER);
        for (Map.Entry<String, Double> e : new TreeMap<>(rq).entrySet()) {
            if (e.getKey().contains(SEP)) {
                continue;
            }
            String name = e.getKey();
            ObjectNode cluster = json.putObject(name);
            Sample.put(cluster, "rq", e.getValue());
            Sample.put(cluster, "rq_5xx", rq.getOrDefault(name + SEP + "5xx", 0.0));
            HistogramDeltas.Buckets buckets = time.getOrDefault(name, new HistogramDeltas.Buckets());
            Sample.put(cluster, "p50_ms", buckets.quantileMillis(0.5));
            Sample.put(cluster, "p99_ms", buckets.quantileMillis(0.99));
            Sample.put(cluster, "cx_active", connections.getOrDefault(name, 0.0));
        }
    }

    /** The values of the gauges called {@code name}, summed by {@code tag} and in all under "". */
    private Map<String, Double> gauges(String name, String tag) {
        Map<String, Double> sums = new TreeMap<>();
        for (Meter meter : registry.find(name).meters()) {
            double value = meter instanceof Gauge g ? g.value() : 0;
            if (Double.isNaN(value)) {
                continue;
            }
            sums.merge(ALL, value, Double::sum);
            if (tag != null) {
                sums.merge(meter.getId().getTag(tag), value, Double::sum);
            }
        }
        return sums;
    }
}
