package io.tollgate.admin.series;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One second of the gateway as the console charts it: the gateway-wide values, in the order of
 * {@link #NAMES}, and the same second broken down by listener, route and cluster.
 *
 * @param epochMillis when it was taken
 * @param values per name of {@link #NAMES}; NaN when unknown
 * @param breakdown {@code listeners}, {@code routes} and {@code clusters} of this second, as JSON
 */
public record Sample(long epochMillis, double[] values, ObjectNode breakdown) {

    /**
     * The series: requests answered per second ({@code rq}), of them with a 4xx or a 5xx status,
     * requests failed or refused per second by reason ({@code rq_error}, the gateway's own errors),
     * the median and 99th percentile of the upstream request time in milliseconds over that
     * second, and the open downstream connections.
     */
    public static final List<String> NAMES = List.of("rq", "rq_4xx", "rq_5xx", "rq_error", "p50_ms", "p99_ms",
            "cx_active");

    /** This sample as one JSON object: {@code time}, each series by name, and the breakdown. */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode().put("time", epochMillis);
        for (int s = 0; s < values.length; s++) {
            put(json, NAMES.get(s), values[s]);
        }
        json.setAll(breakdown);
        return json;
    }

    /** Writes a value rounded to three decimals, or null when unknown. */
    static void put(ObjectNode json, String name, double value) {
        if (Double.isNaN(value)) {
            json.putNull(name);
        } else {
            json.put(name, round(value));
        }
    }

    static void add(ArrayNode array, double value) {
        if (Double.isNaN(value)) {
            array.addNull();
        } else {
            array.add(round(value));
        }
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
