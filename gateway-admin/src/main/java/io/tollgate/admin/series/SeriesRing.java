package io.tollgate.admin.series;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The last {@code capacity} samples of the gateway-wide series, one per second, oldest
 * overwritten first. Primitive arrays only: 15 minutes of eight series take about 60 KB. Used
 * by the admin thread alone.
 */
public final class SeriesRing {

    private final long[] times;
    private final double[][] values;
    private int next;
    private int size;

    public SeriesRing(int capacity) {
        times = new long[capacity];
        values = new double[Sample.NAMES.size()][capacity];
    }

    /** Keeps {@code sample}, overwriting the oldest when full. */
    public void add(Sample sample) {
        times[next] = sample.epochMillis();
        for (int s = 0; s < values.length; s++) {
            values[s][next] = sample.values()[s];
        }
        next = (next + 1) % times.length;
        size = Math.min(size + 1, times.length);
    }

    /** How many samples it holds. */
    public int size() {
        return size;
    }

    /**
     * The samples oldest first, as columns: {@code time} (epoch milliseconds) and one array per
     * series, {@code null} where a value was unknown (a quantile of a second without requests).
     */
    public ObjectNode toJson() {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        ObjectNode json = nodes.objectNode().put("interval_ms", 1000).put("capacity", times.length);
        ArrayNode time = json.putArray("time");
        int first = (next - size + times.length) % times.length;
        for (int i = 0; i < size; i++) {
            time.add(times[(first + i) % times.length]);
        }
        ObjectNode series = json.putObject("series");
        for (int s = 0; s < values.length; s++) {
            ArrayNode column = series.putArray(Sample.NAMES.get(s));
            for (int i = 0; i < size; i++) {
                Sample.add(column, values[s][(first + i) % times.length]);
            }
        }
        return json;
    }
}
