package io.tollgate.benchmarks.accesslog;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.tollgate.benchmarks.CpuTime;
import io.tollgate.core.accesslog.AccessLogEntry;
import io.tollgate.core.accesslog.AccessLogSink;
import io.tollgate.core.accesslog.HeaderCapture;
import io.tollgate.core.accesslog.LineFormat;
import io.tollgate.core.accesslog.LineFormats;
import io.tollgate.core.config.AccessLogConfig;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.server.exchange.ExchangeRecord;
import io.tollgate.server.exchange.ListenerRecords;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The access log's cost per request in its two halves. {@code record}: what the event loop does,
 * an {@link ExchangeRecord} made, its headers offered for capture (a browser-like request of
 * eight headers, a response of four) and finished into an entry handed to the sink. {@code line}:
 * what the writer thread does, the entry formatted. {@code none} has no access log; {@code default}
 * the default line; {@code text} a format string reading three request headers and one response
 * header; {@code json} the same fields as a JSON object.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AccessLogBenchmark {

    private static final String TEXT = "[%START_TIME%] \"%REQ(:METHOD)% %REQ(:PATH)% %PROTOCOL%\" %RESPONSE_CODE%"
            + " %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION% \"%REQ(user-agent):64%\""
            + " \"%REQ(x-forwarded-for?x-real-ip)%\" \"%RESP(content-type)%\" %UPSTREAM_HOST% %ROUTE_NAME%";

    @Param({"none", "default", "text", "json"})
    String format;

    private ListenerRecords records;
    private LineFormat lineFormat;
    private final HttpHeaders requestHeaders = new DefaultHttpHeaders();
    private final HttpHeaders responseHeaders = new DefaultHttpHeaders();
    private final StringBuilder line = new StringBuilder(512);
    private AccessLogEntry last;

    @Setup
    public void setUp() {
        AccessLogConfig config = switch (format) {
            case "none", "default" -> new AccessLogConfig("bench");
            case "text" -> new AccessLogConfig("bench", TEXT, Map.of());
            case "json" -> new AccessLogConfig("bench", "", json());
            default -> throw new IllegalArgumentException(format);
        };
        lineFormat = LineFormats.of(config);
        AccessLogSink sink = format.equals("none") ? null : new KeepingSink(lineFormat.capture());
        records = ListenerRecords.of("http", new GatewayMetrics(new SimpleMeterRegistry()), sink);
        requestHeaders.add("host", "shop.example.com")
                .add("user-agent", "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0")
                .add("accept", "text/html,application/xhtml+xml")
                .add("accept-language", "en-US,en;q=0.5")
                .add("accept-encoding", "gzip, deflate, br")
                .add("x-forwarded-for", "203.0.113.7")
                .add("x-request-id", "4bf92f3577b34da6a3ce929d0e0e4736")
                .add("cookie", "session=0123456789abcdef");
        responseHeaders.add("content-type", "text/html; charset=utf-8").add("content-length", "345")
                .add("date", "Tue, 24 Nov 2026 15:00:00 GMT").add("server", "upstream");
        last = recordOne();
    }

    private static Map<String, String> json() {
        Map<String, String> json = new LinkedHashMap<>();
        json.put("start", "%START_TIME%");
        json.put("method", "%REQ(:METHOD)%");
        json.put("path", "%REQ(:PATH)%");
        json.put("protocol", "%PROTOCOL%");
        json.put("status", "%RESPONSE_CODE%");
        json.put("flags", "%RESPONSE_FLAGS%");
        json.put("received", "%BYTES_RECEIVED%");
        json.put("sent", "%BYTES_SENT%");
        json.put("duration", "%DURATION%");
        json.put("agent", "%REQ(user-agent):64%");
        json.put("client", "%REQ(x-forwarded-for?x-real-ip)%");
        json.put("type", "%RESP(content-type)%");
        json.put("upstream", "%UPSTREAM_HOST%");
        json.put("route", "%ROUTE_NAME%");
        return json;
    }

    /**
     * Both shares of every format timed by thread CPU time ({@link CpuTime}), for a loaded host:
     * {@code java -cp benchmarks/target/benchmarks.jar io.tollgate.benchmarks.accesslog.AccessLogBenchmark}.
     */
    public static void main(String[] args) {
        System.out.printf("%-8s %14s %14s%n", "format", "record ns/op", "line ns/op");
        for (String format : new String[] {"none", "default", "text", "json"}) {
            AccessLogBenchmark bench = new AccessLogBenchmark();
            bench.format = format;
            bench.setUp();
            double record = CpuTime.nanosPerCall(bench::record, 2_000_000, 8);
            double line = CpuTime.nanosPerCall(bench::line, 2_000_000, 8);
            System.out.printf("%-8s %14.0f %14.0f%n", format, record, line);
        }
    }

    /** The event loop's share: the record, the header capture and the entry. */
    @Benchmark
    public AccessLogEntry record() {
        return recordOne();
    }

    /** The writer thread's share: one line (none without an access log). */
    @Benchmark
    public int line() {
        if (last == null) {
            return 0;
        }
        line.setLength(0);
        lineFormat.append(last, line);
        return line.length();
    }

    private AccessLogEntry recordOne() {
        ExchangeRecord record = new ExchangeRecord(records, "HTTP/1.1", "GET", "/catalog/items?page=2",
                "shop.example.com", "127.0.0.1:50000", null, false);
        record.requestHeaders(requestHeaders);
        record.received(0);
        record.responseHeaders(responseHeaders);
        record.sent(345);
        record.finish(200);
        return records.accessLog() == null ? null : ((KeepingSink) records.accessLog()).entry;
    }

    /** A sink that keeps the last entry, so that the benchmark sees it built and JMH cannot drop it. */
    private static final class KeepingSink implements AccessLogSink {

        private final HeaderCapture capture;
        private AccessLogEntry entry;

        KeepingSink(HeaderCapture capture) {
            this.capture = capture;
        }

        @Override
        public void log(AccessLogEntry entry) {
            this.entry = entry;
        }

        @Override
        public HeaderCapture capture() {
            return capture;
        }

        @Override
        public void close() {
        }
    }
}
