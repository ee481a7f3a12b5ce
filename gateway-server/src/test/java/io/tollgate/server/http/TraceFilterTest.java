package io.tollgate.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.LogLines;
import io.tollgate.server.testing.TestGateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The {@code trace} filter over HTTP/1.1 with the JDK client and a real upstream that echoes the
 * headers it got: W3C and B3 contexts get the gateway's span as parent, a request without context
 * starts a trace, the access log names trace and span, and a listener without the filter carries
 * every header through untouched; exported spans go to the log.
 */
class TraceFilterTest {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";
    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: traced
                port: 0
                protocols: [http1, h2c]
                filters: [{ name: trace, new_trace_formats: [w3c, b3] }]
                access_log: { path: "${LOG}", format: "%REQ(x-test)% %TRACE_ID% %SPAN_ID%" }
                route_config:
                  virtual_hosts:
                    - { name: all, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: echo } }] }
              - name: exported
                port: 0
                filters: [{ name: trace, export: log }]
                route_config:
                  virtual_hosts:
                    - { name: all, domains: ["*"], routes: [{ name: api, match: { prefix: / }, route: { cluster: echo } }] }
              - name: plain
                port: 0
                route_config:
                  virtual_hosts:
                    - { name: all, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: echo } }] }
            clusters:
              - name: echo
                endpoints: [ { address: 127.0.0.1, port: ${ECHO} } ]
            """;

    @TempDir
    static Path dir;
    private static HttpUpstream echo;
    private static TestGateway gateway;
    private static final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() throws Exception {
        echo = new HttpUpstream("echo");
        gateway = TestGateway.start(CONFIG, Map.of("ECHO", echo.port(), "LOG", dir.resolve("access.log")));
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        echo.close();
    }

    @Test
    void w3cContextGetsTheGatewaysSpanAsParent() throws Exception {
        Map<String, String> seen = send("traced", "w3c", "traceparent", "00-" + TRACE_ID + "-" + CALLER_SPAN + "-00",
                "tracestate", "vendor=opaque,other=1");

        String[] parts = seen.get("traceparent").split("-");
        assertThat(parts[0]).isEqualTo("00");
        assertThat(parts[1]).isEqualTo(TRACE_ID);
        assertThat(parts[2]).matches("[0-9a-f]{16}").isNotEqualTo(CALLER_SPAN);
        assertThat(parts[3]).isEqualTo("00");
        assertThat(seen.get("tracestate")).isEqualTo("vendor=opaque,other=1");
        assertThat(seen).doesNotContainKey("x-b3-traceid");
        assertThat(logLine("w3c")).isEqualTo("w3c " + TRACE_ID + " " + parts[2]);
    }

    @Test
    void http2RequestsGetTheGatewaysSpanToo() throws Exception {
        HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        HttpResponse<String> response = h2.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + gateway.port("traced") + "/t")).header("x-test", "h2")
                .header("traceparent", "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01").build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> second = h2.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + gateway.port("traced") + "/t")).header("x-test", "h2-stream")
                .header("traceparent", "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01").build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(second.version()).isEqualTo(HttpClient.Version.HTTP_2);
        for (HttpResponse<String> r : List.of(response, second)) {
            assertThat(r.body()).containsPattern("h-traceparent: 00-" + TRACE_ID + "-[0-9a-f]{16}-01")
                    .doesNotContain(CALLER_SPAN);
        }
        assertThat(logLine("h2-stream").split(" ")[1]).isEqualTo(TRACE_ID);
    }

    @Test
    void b3HeadersGetANewSpanWithTheCallersAsParent() throws Exception {
        Map<String, String> seen = send("traced", "b3", "X-B3-TraceId", TRACE_ID, "X-B3-SpanId", CALLER_SPAN,
                "X-B3-Sampled", "1");

        assertThat(seen.get("x-b3-traceid")).isEqualTo(TRACE_ID);
        assertThat(seen.get("x-b3-parentspanid")).isEqualTo(CALLER_SPAN);
        assertThat(seen.get("x-b3-spanid")).matches("[0-9a-f]{16}").isNotEqualTo(CALLER_SPAN);
        assertThat(seen.get("x-b3-sampled")).isEqualTo("1");
        assertThat(seen).doesNotContainKey("traceparent");
        assertThat(logLine("b3")).isEqualTo("b3 " + TRACE_ID + " " + seen.get("x-b3-spanid"));
    }

    @Test
    void singleB3HeaderGetsANewSpanWithTheCallersAsParent() throws Exception {
        Map<String, String> seen = send("traced", "b3-single", "b3", TRACE_ID + "-" + CALLER_SPAN + "-d");

        String[] fields = seen.get("b3").split("-");
        assertThat(fields).hasSize(4);
        assertThat(fields[0]).isEqualTo(TRACE_ID);
        assertThat(fields[1]).matches("[0-9a-f]{16}").isNotEqualTo(CALLER_SPAN);
        assertThat(fields[2]).isEqualTo("d");
        assertThat(fields[3]).isEqualTo(CALLER_SPAN);
    }

    @Test
    void aRequestWithoutContextStartsATraceInTheConfiguredFormats() throws Exception {
        Map<String, String> seen = send("traced", "new", "traceparent", "00-not-valid-01");

        assertThat(seen.get("traceparent")).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01");
        String traceId = seen.get("traceparent").substring(3, 35);
        String spanId = seen.get("traceparent").substring(36, 52);
        assertThat(seen.get("x-b3-traceid")).isEqualTo(traceId);
        assertThat(seen.get("x-b3-spanid")).isEqualTo(spanId);
        assertThat(logLine("new")).isEqualTo("new " + traceId + " " + spanId);
    }

    @Test
    void withoutTheFilterEveryTraceHeaderPassesUntouched() throws Exception {
        String traceparent = "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01";
        Map<String, String> seen = send("plain", "plain", "traceparent", traceparent, "X-B3-SpanId", CALLER_SPAN,
                "b3", TRACE_ID + "-" + CALLER_SPAN);

        assertThat(seen.get("traceparent")).isEqualTo(traceparent);
        assertThat(seen.get("x-b3-spanid")).isEqualTo(CALLER_SPAN);
        assertThat(seen.get("b3")).isEqualTo(TRACE_ID + "-" + CALLER_SPAN);
        assertThat(seen).doesNotContainKey("x-b3-parentspanid");
    }

    @Test
    void exportsTheFinishedSpanToTheLogWhenAsked() throws Exception {
        ListAppender<ILoggingEvent> spans = new ListAppender<>();
        spans.start();
        Logger log = (Logger) LoggerFactory.getLogger("io.tollgate.filters.trace.spans");
        log.addAppender(spans);
        try {
            Map<String, String> seen = send("exported", "export", "traceparent", "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01");
            String spanId = seen.get("traceparent").substring(36, 52);

            Await.until("the exported span", Duration.ofSeconds(5), () -> !spans.list.isEmpty());
            assertThat(spans.list.get(0).getFormattedMessage()).startsWith("span trace_id=" + TRACE_ID + " span_id="
                    + spanId + " parent_id=" + CALLER_SPAN + " name=GET /t listener=exported route=api start_us=")
                    .contains(" status=200 upstream=127.0.0.1:" + echo.port());
        } finally {
            log.detachAppender(spans);
        }
    }

    /** Sends headers through a listener and returns the headers the upstream got, by lower-case name. */
    private static Map<String, String> send(String listener, String tag, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port(listener) + "/t"))
                .header("x-test", tag);
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        Map<String, String> seen = new HashMap<>();
        for (String line : response.body().split("\n")) {
            if (line.startsWith("h-")) {
                int colon = line.indexOf(": ");
                seen.put(line.substring(2, colon), line.substring(colon + 2));
            }
        }
        return seen;
    }

    private static String logLine(String tag) throws InterruptedException {
        return LogLines.await(dir.resolve("access.log"), l -> l.startsWith(tag + " "));
    }
}
