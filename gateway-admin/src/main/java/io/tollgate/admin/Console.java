package io.tollgate.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.tollgate.admin.series.HostSampler;
import io.tollgate.admin.series.MeterSampler;
import io.tollgate.admin.series.Sample;
import io.tollgate.admin.series.SeriesRing;
import io.tollgate.core.accesslog.AccessLogEntry;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data behind the browser console: once a second, on the admin thread, it samples the
 * meters into the 15-minute ring (and each host's figures into that second's breakdown), takes the finished requests the event loops handed over, and
 * pushes both to the stream's subscribers. Every method runs on the admin thread, which is
 * neither an I/O event loop nor shared with traffic.
 */
final class Console {

    /** Samples kept: 15 minutes, one per second. */
    static final int SAMPLES = 900;
    /** The most records {@code GET /access_log} answers. */
    private static final int MAX_RECORDS = AccessLogTail.CAPACITY;

    private static final Logger log = LoggerFactory.getLogger(Console.class);

    private static final ObjectWriter COMPACT = AdminResponse.mapper().writer()
            .without(SerializationFeature.INDENT_OUTPUT);

    private final AdminContext context;
    private final MeterSampler sampler;
    private final HostSampler hosts = new HostSampler();
    private final SeriesRing ring = new SeriesRing(SAMPLES);
    private final AccessLogTail tail;
    private final EventStream stream = new EventStream();

    Console(AdminContext context) {
        this.context = context;
        this.sampler = new MeterSampler(context.prometheus());
        this.tail = new AccessLogTail(context.accessLogTap());
    }

    /**
     * Takes this second's sample and the new access-log records, and publishes them. A failure is
     * logged and the next second tries again: the scheduler would stop calling a task that throws.
     */
    void tick() {
        try {
            sampleAndPublish();
        } catch (RuntimeException e) {
            log.warn("the console's sampling failed; trying again in a second", e);
        }
    }

    private void sampleAndPublish() {
        long now = System.currentTimeMillis();
        Sample sample = sampler.sample(now);
        hosts.sample(context.clusters(), (ObjectNode) sample.breakdown().get("clusters"));
        ring.add(sample);
        stream.publish("sample", compact(sample.toJson()));
        List<AccessLogEntry> records = tail.drain(now, stream.size() > 0);
        if (!records.isEmpty()) {
            ArrayNode array = AdminResponse.mapper().createArrayNode();
            records.forEach(r -> array.add(AccessLogTail.json(r)));
            stream.publish("access_log", compact(array));
        }
    }

    EventStream stream() {
        return stream;
    }

    /** {@code GET /stats/series}: the ring, oldest first. */
    AdminResponse series() {
        return AdminResponse.json(ring.toJson());
    }

    /** {@code GET /access_log}: the kept records that pass the filters, newest last. */
    AdminResponse accessLog(Map<String, List<String>> params) {
        int limit = MAX_RECORDS;
        List<String> limits = params.get("limit");
        if (limits != null && !limits.isEmpty()) {
            try {
                limit = Integer.parseInt(limits.get(0));
            } catch (NumberFormatException e) {
                limit = -1;
            }
            if (limit < 1 || limit > MAX_RECORDS) {
                return AdminResponse.text(HttpResponseStatus.BAD_REQUEST,
                        "limit: '" + limits.get(0) + "' (expected 1 to " + MAX_RECORDS + ")");
            }
        }
        tail.watched(System.currentTimeMillis());
        return AdminResponse.json(tail.toJson(AccessLogTail.filter(params), limit));
    }

    private static String compact(JsonNode json) {
        try {
            return COMPACT.writeValueAsString(json);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
