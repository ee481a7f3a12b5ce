package io.tollgate.server.filter;

import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.sofa.rpc.context.RpcInvokeContext;
import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.FunctionCounter;
import io.tollgate.server.rpc.EchoService;
import io.tollgate.server.rpc.SofaRpc;
import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.rpc.DubboProvider;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import io.tollgate.server.testing.ZipkinServer;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.dubbo.rpc.RpcContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spans of the {@code trace} filter reach a real Zipkin server (its published exec jar, run as a
 * child JVM) for HTTP, Bolt (SOFARPC) and Dubbo requests: Zipkin's query API returns them under
 * the trace id the upstream saw, with the gateway's span id the upstream saw as parent, the
 * caller's span as the gateway's parent, kind SERVER and the protocol's tags. Sampling ratio 0
 * and a caller's "not sampled" export only failed requests; a full queue drops spans and counts
 * them. The upstream attempt is a CLIENT span, the child of the gateway's.
 */
class ZipkinExportTest {

    private static final String CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";
    private static final String EXPORT = "{ type: zipkin, endpoint: \"${ZIPKIN}\", service_name: tollgate,"
            + " flush_interval: 100ms, max_batch: 64 }";
    private static final String ROUTES = """
                route_config:
                  virtual_hosts:
                    - { name: all, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: %s } }] }
            """;
    private static final String CONFIG = """
            listeners:
              - name: http
                port: 0
                protocols: [http1]
                filters: [{ name: trace, export: EXPORT, sampling: { ratio: 1.0 } }]
            """ + ROUTES.formatted("web") + """
              - name: bolt
                port: 0
                protocols: [bolt]
                filters: [{ name: trace, export: EXPORT }]
            """ + ROUTES.formatted("sofa") + """
              - name: dubbo
                port: 0
                protocols: [dubbo]
                filters: [{ name: trace, export: EXPORT }]
            """ + ROUTES.formatted("dubbo") + """
              - name: unsampled
                port: 0
                protocols: [http1]
                filters: [{ name: trace, export: EXPORT, sampling: { ratio: 0 } }]
            """ + ROUTES.formatted("web") + """
              - name: tiny
                port: 0
                protocols: [http1]
                filters: [{ name: trace, export: { type: zipkin, endpoint: "${NOWHERE}", max_queue: 2, flush_interval: 1h } }]
            """ + ROUTES.formatted("web") + """
            clusters:
              - { name: web, endpoints: [{ address: 127.0.0.1, port: ${WEB} }] }
              - { name: sofa, endpoints: [{ address: 127.0.0.1, port: ${SOFA} }] }
              - { name: dubbo, endpoints: [{ address: 127.0.0.1, port: ${DUBBO} }] }
            """;

    @TempDir
    static Path dir;
    private static final StartedResources started = new StartedResources();
    private static final RecordingEcho recording = new RecordingEcho();
    private static final HttpClient client = HttpClient.newHttpClient();
    private static ZipkinServer zipkin;
    private static HttpUpstream web;
    private static TestGateway gateway;
    private static SofaRpc sofa;
    private static DubboConsumer dubbo;
    private static String nowhere;

    /**
     * Zipkin's server starts in a JVM of its own, past the suite's 60 s default on a loaded host;
     * the upstreams start meanwhile.
     */
    @BeforeAll
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    static void start() throws Exception {
        zipkin = started.add(ZipkinServer.launch(dir));
        web = started.add(new HttpUpstream("web"));
        web.answer("/fail", () -> 503);
        sofa = started.add(new SofaRpc(recording));
        DubboProvider provider = started.add(DubboProvider.named("dubbo").start());
        zipkin.awaitReady();
        nowhere = "http://127.0.0.1:" + FreePort.pick() + "/api/v2/spans";
        gateway = started.add(TestGateway.start(CONFIG.replace("EXPORT", EXPORT), Map.of("ZIPKIN", zipkin.spansEndpoint(),
                "NOWHERE", nowhere, "WEB", web.port(), "SOFA", sofa.port(), "DUBBO", provider.port())));
        dubbo = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
    }

    @AfterAll
    static void stop() {
        started.close();
    }

    @Test
    void httpSpanOfANewTraceHasTheIdsTheUpstreamSaw() throws Exception {
        String[] upstream = traceparent(get("http", "/orders?id=1", null));
        JsonNode span = serverSpan(upstream[1]);

        assertThat(span.path("id").asText()).isEqualTo(upstream[2]);
        assertThat(span.has("parentId")).isFalse();
        assertThat(upstream[3]).isEqualTo("01");
        assertThat(span.path("kind").asText()).isEqualTo("SERVER");
        assertThat(span.path("name").asText()).isEqualTo("get /orders");
        assertThat(span.path("localEndpoint").path("serviceName").asText()).isEqualTo("tollgate");
        assertThat(span.path("remoteEndpoint").path("ipv4").asText()).isEqualTo("127.0.0.1");
        assertThat(span.path("tags").path("http.method").asText()).isEqualTo("GET");
        assertThat(span.path("tags").path("http.path").asText()).isEqualTo("/orders");
        assertThat(span.path("tags").path("http.status_code").asText()).isEqualTo("200");
        assertThat(span.path("tags").path("tollgate.upstream").asText()).startsWith("127.0.0.1:");
        assertThat(span.path("tags").has("error")).isFalse();
        assertThat(span.path("duration").asLong()).isPositive();

        JsonNode attempt = ofKind(zipkin.trace(upstream[1]), "CLIENT");
        assertThat(attempt.path("parentId").asText()).isEqualTo(upstream[2]);
        assertThat(attempt.path("id").asText()).isNotEqualTo(upstream[2]);
        assertThat(attempt.path("remoteEndpoint").path("ipv4").asText()).isEqualTo("127.0.0.1");
        assertThat(attempt.path("remoteEndpoint").path("port").asInt()).isEqualTo(web.port());
        assertThat(attempt.path("tags").path("tollgate.attempt").asText()).isEqualTo("1");
        assertThat(attempt.path("tags").path("http.status_code").asText()).isEqualTo("200");
        assertThat(attempt.path("timestamp").asLong()).isGreaterThanOrEqualTo(span.path("timestamp").asLong());

        JsonNode traces = zipkin.get("/api/v2/traces?serviceName=tollgate&limit=1000");
        assertThat(traces.findValuesAsText("id")).contains(upstream[2]);
    }

    @Test
    void httpSpanOfACallersTraceIsTheChildOfTheCallersSpan() throws Exception {
        String[] upstream = traceparent(get("http", "/child", "00-" + CALLER_TRACE + "-" + CALLER_SPAN + "-01"));
        assertThat(upstream[1]).isEqualTo(CALLER_TRACE);
        JsonNode span = spanWithId(CALLER_TRACE, upstream[2]);
        assertThat(span.path("parentId").asText()).isEqualTo(CALLER_SPAN);
    }

    @Test
    void boltSpanCarriesTheRpcTags() throws Exception {
        String trace = "5bf92f3577b34da6a3ce929d0e0e4736";
        RpcInvokeContext.getContext().addCustomHeader("traceparent", "00-" + trace + "-" + CALLER_SPAN + "-01");
        sofa.refer(gateway.port("bolt")).echo("bolt");
        String[] upstream = recording.traceparent();
        assertThat(upstream[1]).isEqualTo(trace);

        JsonNode span = spanWithId(trace, upstream[2]);
        assertThat(span.path("parentId").asText()).isEqualTo(CALLER_SPAN);
        assertThat(span.path("name").asText()).isEqualTo(EchoService.class.getName().toLowerCase(Locale.ROOT) + ":1.0/echo");
        assertThat(span.path("tags").path("rpc.system").asText()).isEqualTo("sofarpc");
        assertThat(span.path("tags").path("rpc.service").asText()).isEqualTo(EchoService.class.getName() + ":1.0");
        assertThat(span.path("tags").path("rpc.method").asText()).isEqualTo("echo");
        assertThat(span.path("tags").path("rpc.status_code").asText()).isEqualTo("200");
    }

    @Test
    void dubboSpanCarriesTheRpcTags() throws Exception {
        String trace = "6bf92f3577b34da6a3ce929d0e0e4736";
        RpcContext.getClientAttachment().setAttachment("traceparent", "00-" + trace + "-" + CALLER_SPAN + "-01");
        String[] upstream = dubbo.service().attachment("traceparent").split("-");
        assertThat(upstream[1]).isEqualTo(trace);

        JsonNode span = spanWithId(trace, upstream[2]);
        assertThat(span.path("parentId").asText()).isEqualTo(CALLER_SPAN);
        assertThat(span.path("tags").path("rpc.system").asText()).isEqualTo("dubbo");
        assertThat(span.path("tags").path("rpc.service").asText()).endsWith("DubboEchoService");
        assertThat(span.path("tags").path("rpc.method").asText()).isEqualTo("attachment");
    }

    @Test
    void ratioZeroExportsOnlyErrors() throws Exception {
        String[] ok = traceparent(get("unsampled", "/quiet", null));
        assertThat(ok[3]).isEqualTo("00");
        // a path of its own: callersNotSampledDecisionIsKept sends an error to /fail too
        HttpResponse<String> failed = client.send(HttpRequest.newBuilder(gateway.uri("unsampled", "/fail/ratio-zero"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(failed.statusCode()).isEqualTo(503);
        String failedTrace = traceIdOfTag("http.path", "/fail/ratio-zero");

        JsonNode error = serverSpan(failedTrace);
        assertThat(error.path("tags").path("error").asText()).isEqualTo("503");
        // the failed request was sent after the unsampled one, so its span is there only if that one was dropped
        assertThat(zipkin.trace(ok[1]).size()).isZero();
    }

    @Test
    void callersNotSampledDecisionIsKept() throws Exception {
        String trace = "7bf92f3577b34da6a3ce929d0e0e4736";
        String[] upstream = traceparent(get("http", "/not-sampled", "00-" + trace + "-" + CALLER_SPAN + "-00"));
        assertThat(upstream[3]).isEqualTo("00");
        String errorTrace = "8bf92f3577b34da6a3ce929d0e0e4736";
        HttpResponse<String> failed = client.send(HttpRequest.newBuilder(gateway.uri("http", "/fail"))
                .header("traceparent", "00-" + errorTrace + "-" + CALLER_SPAN + "-00").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(failed.statusCode()).isEqualTo(503);

        serverSpan(errorTrace);
        assertThat(zipkin.trace(trace).size()).isZero();
    }

    /** {@code tiny} holds two spans (flushed after an hour, to nowhere): of the ten (a SERVER and a CLIENT span a request) eight are dropped, the requests served. */
    @Test
    void aFullQueueDropsAndCounts() throws Exception {
        for (int i = 0; i < 5; i++) {
            get("tiny", "/dropped", null);
        }
        FunctionCounter dropped = gateway.gateway().metrics().registry().find("tollgate.trace.export.dropped")
                .tag("endpoint", nowhere).functionCounter();
        assertThat(dropped).isNotNull();
        // a request's span is offered once it completed, which may be just after its answer arrived
        Await.until("8 spans dropped", Duration.ofSeconds(10), () -> dropped.count() >= 8);
        assertThat(dropped.count()).isEqualTo(8);
    }

    private static HttpResponse<String> get(String listener, String path, String traceparent) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(gateway.uri(listener, path)).timeout(Duration.ofSeconds(10));
        if (traceparent != null) {
            request.header("traceparent", traceparent);
        }
        HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response;
    }

    /** The traceparent the upstream echoed, split at its dashes. */
    private static String[] traceparent(HttpResponse<String> echo) {
        return echo.body().lines().filter(l -> l.startsWith("h-traceparent: ")).findFirst().orElseThrow()
                .substring("h-traceparent: ".length()).split("-");
    }

    /** The one SERVER span of the trace, once its one attempt's CLIENT span arrived too. */
    private static JsonNode serverSpan(String traceId) throws Exception {
        JsonNode trace = awaitTrace(traceId, 2);
        assertThat(trace.size()).isEqualTo(2);
        assertThat(trace.findValuesAsText("kind")).containsExactlyInAnyOrder("SERVER", "CLIENT");
        return ofKind(trace, "SERVER");
    }

    private static JsonNode ofKind(JsonNode trace, String kind) {
        for (JsonNode span : trace) {
            if (span.path("kind").asText().equals(kind)) {
                return span;
            }
        }
        throw new AssertionError("no " + kind + " span in " + trace);
    }

    private static JsonNode spanWithId(String traceId, String spanId) throws Exception {
        for (JsonNode span : awaitTrace(traceId, 2)) {
            if (span.path("id").asText().equals(spanId)) {
                return span;
            }
        }
        throw new AssertionError("no span " + spanId + " in trace " + traceId);
    }

    /** The trace id of the one span Zipkin has with tag {@code key} = {@code value}, waiting for it. */
    private static String traceIdOfTag(String key, String value) throws Exception {
        AtomicReference<JsonNode> found = new AtomicReference<>();
        Await.until("a span tagged " + key + "=" + value, Duration.ofSeconds(30), () -> {
            try {
                JsonNode traces = zipkin.get("/api/v2/traces?serviceName=tollgate&annotationQuery="
                        + URLEncoder.encode(key + "=" + value, StandardCharsets.UTF_8) + "&limit=10");
                found.set(traces.size() == 1 ? traces.get(0).get(0) : null);
                return found.get() != null;
            } catch (Exception e) {
                return false;
            }
        });
        return found.get().path("traceId").asText();
    }

    private static JsonNode awaitTrace(String traceId, int spans) throws Exception {
        AtomicReference<JsonNode> trace = new AtomicReference<>();
        Await.until(spans + " spans of trace " + traceId + " in zipkin", Duration.ofSeconds(30), () -> {
            try {
                trace.set(zipkin.trace(traceId));
                return trace.get().size() >= spans;
            } catch (Exception e) {
                return false;
            }
        });
        return trace.get();
    }
}
