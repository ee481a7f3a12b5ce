package io.tollgate.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tollgate.core.accesslog.AccessLogEntry;
import io.tollgate.core.accesslog.AccessLogTap;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The most recent finished requests for the console's live access log, taken from the gateway's
 * {@link AccessLogTap} on the admin thread. The tap is open only while someone watches: a
 * stream subscriber, or a {@code GET /access_log} in the last {@link #WATCH_MILLIS}.
 */
final class AccessLogTail {

    /** Records kept. */
    static final int CAPACITY = 1000;
    /** How long a read of the tail keeps the tap open. */
    static final long WATCH_MILLIS = 30_000;

    private final AccessLogTap tap;
    private final ArrayDeque<AccessLogEntry> recent = new ArrayDeque<>(CAPACITY);
    private long watchedUntil;

    AccessLogTail(AccessLogTap tap) {
        this.tap = tap;
    }

    /** Keeps the tap open for a while: someone read the tail. */
    void watched(long nowMillis) {
        watchedUntil = nowMillis + WATCH_MILLIS;
        tap.open(true);
    }

    /**
     * Takes what the event loops handed over, keeps it, opens or closes the tap by whether anyone
     * still watches, and returns the new records oldest first.
     */
    List<AccessLogEntry> drain(long nowMillis, boolean streaming) {
        List<AccessLogEntry> taken = new ArrayList<>();
        for (AccessLogEntry entry = tap.poll(); entry != null && taken.size() < CAPACITY;
                entry = tap.poll()) {
            taken.add(entry);
            if (recent.size() == CAPACITY) {
                recent.removeFirst();
            }
            recent.addLast(entry);
        }
        tap.open(streaming || nowMillis < watchedUntil);
        return taken;
    }

    /** The kept records that pass {@code filter}, at most {@code limit}, the newest last. */
    ObjectNode toJson(AccessLogFilter filter, int limit) {
        ObjectNode json = AdminResponse.mapper().createObjectNode().put("dropped", tap.dropped());
        ArrayNode records = json.putArray("records");
        List<AccessLogEntry> matched = new ArrayList<>();
        for (Iterator<AccessLogEntry> it = recent.descendingIterator(); it.hasNext() && matched.size() < limit; ) {
            AccessLogEntry entry = it.next();
            if (filter.test(entry)) {
                matched.add(entry);
            }
        }
        for (int i = matched.size() - 1; i >= 0; i--) {
            records.add(json(matched.get(i)));
        }
        return json;
    }

    static ObjectNode json(AccessLogEntry e) {
        ObjectNode json = AdminResponse.mapper().createObjectNode()
                .put("start_time", Instant.ofEpochMilli(e.startEpochMillis()).toString())
                .put("listener", e.listener())
                .put("protocol", e.protocol())
                .put("method", e.method())
                .put("path", e.path())
                .put("authority", e.authority())
                .put("status", e.status())
                .put("flags", e.responseFlags())
                .put("duration_ms", e.durationMicros() / 1000.0)
                .put("bytes_received", e.bytesReceived())
                .put("bytes_sent", e.bytesSent())
                .put("route", e.route())
                .put("cluster", e.upstreamCluster())
                .put("upstream_host", e.upstreamHost())
                .put("downstream_address", e.downstreamAddress())
                .put("request_id", e.requestId());
        return json;
    }

    /** The query parameters of {@code GET /access_log}: {@code status}, {@code route}, {@code cluster}, {@code flag}. */
    static AccessLogFilter filter(Map<String, List<String>> params) {
        return new AccessLogFilter(first(params, "status"), first(params, "route"), first(params, "cluster"),
                first(params, "flag"));
    }

    private static String first(Map<String, List<String>> params, String name) {
        List<String> values = params.get(name);
        return values == null || values.isEmpty() || values.get(0).isBlank() ? null : values.get(0).strip();
    }
}
