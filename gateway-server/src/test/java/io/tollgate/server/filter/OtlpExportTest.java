package io.tollgate.server.filter;

import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.sofa.rpc.context.RpcInvokeContext;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import io.tollgate.server.rpc.EchoService;
import io.tollgate.server.rpc.SofaRpc;
import io.tollgate.server.rpc.DubboConsumer;
import io.tollgate.server.rpc.DubboProvider;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.OtlpReceiver;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Map;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.dubbo.rpc.RpcContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Spans of the {@code trace} filter reach an OTLP receiver built on the published
 * {@code opentelemetry-proto} service: over OTLP/HTTP (protobuf body) for HTTP requests, over
 * OTLP/gRPC for Bolt (SOFARPC) and Dubbo calls, with the ids the upstream saw, kind SERVER, the
 * resource's {@code service.name} and the protocol's semantic-convention attributes; each upstream
 * attempt (a retry too) is a CLIENT child span of the request's span.
 */
class OtlpExportTest {

    private static final String CALLER_SPAN = "00f067aa0ba902b7";
    private static final String ROUTES = """
                route_config:
                  virtual_hosts:
                    - { name: all, domains: ["*"], routes: [{ name: %s, match: { prefix: / }, route: { cluster: %s } }] }
            """;
    private static final String CONFIG = """
            listeners:
              - name: http
                port: 0
                protocols: [http1]
                filters: [{ name: trace, export: { type: otlp, endpoint: "${OTLP_HTTP}", service_name: edge, flush_interval: 100ms } }]
            """ + ROUTES.formatted("orders", "web") + """
              - name: bolt
                port: 0
                protocols: [bolt]
                filters: [{ name: trace, export: { type: otlp, protocol: grpc, endpoint: "${OTLP_GRPC}", flush_interval: 100ms } }]
            """ + ROUTES.formatted("sofa-route", "sofa") + """
              - name: dubbo
                port: 0
                protocols: [dubbo]
                filters: [{ name: trace, export: { type: otlp, protocol: grpc, endpoint: "${OTLP_GRPC}", flush_interval: 100ms } }]
            """ + ROUTES.formatted("dubbo-route", "dubbo") + """
              - name: retry
                port: 0
                protocols: [http1]
                filters: [{ name: trace, export: { type: otlp, endpoint: "${OTLP_HTTP}", flush_interval: 100ms } }]
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - name: flaky
                          match: { prefix: / }
                          route: { cluster: web, retry_policy: { retry_on: [5xx], num_retries: 1, retry_back_off: { base_interval: 1ms } } }
            clusters:
              - { name: web, endpoints: [{ address: 127.0.0.1, port: ${WEB} }] }
              - { name: sofa, endpoints: [{ address: 127.0.0.1, port: ${SOFA} }] }
              - { name: dubbo, endpoints: [{ address: 127.0.0.1, port: ${DUBBO} }] }
            """;

    private static final StartedResources started = new StartedResources();
    private static final RecordingEcho recording = new RecordingEcho();
    private static final HttpClient client = HttpClient.newHttpClient();
    private static OtlpReceiver receiver;
    private static TestGateway gateway;
    private static SofaRpc sofa;
    private static DubboConsumer dubbo;

    @BeforeAll
    static void start() throws Exception {
        receiver = started.add(new OtlpReceiver());
        HttpUpstream web = started.add(new HttpUpstream("web"));
        web.answer("/fail", () -> 503);
        AtomicInteger flaky = new AtomicInteger();
        web.answer("/flaky", () -> flaky.getAndIncrement() == 0 ? 503 : 200);
        sofa = started.add(new SofaRpc(recording));
        DubboProvider provider = started.add(DubboProvider.named("dubbo").start());
        gateway = started.add(TestGateway.start(CONFIG, Map.of("OTLP_HTTP", receiver.httpEndpoint(),
                "OTLP_GRPC", receiver.grpcEndpoint(), "WEB", web.port(), "SOFA", sofa.port(), "DUBBO", provider.port())));
        dubbo = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
    }

    @AfterAll
    static void stop() {
        started.close();
    }

    @Test
    void httpSpanGoesOverOtlpHttpWithTheHttpAttributes() throws Exception {
        String[] upstream = traceparent(send("/orders?id=1", 200));
        OtlpReceiver.Received received = receiver.awaitSpan(upstream[2]);
        Span span = received.span();

        assertThat(received.channel()).isEqualTo("http");
        assertThat(received.serviceName()).isEqualTo("edge");
        assertThat(received.scope()).isEqualTo("tollgate");
        assertThat(hex(span.getTraceId().toByteArray())).isEqualTo(upstream[1]);
        assertThat(span.getParentSpanId().isEmpty()).isTrue();
        assertThat(span.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_SERVER);
        assertThat(span.getName()).isEqualTo("GET /orders");
        assertThat(span.getEndTimeUnixNano()).isGreaterThan(span.getStartTimeUnixNano());
        assertThat(span.getStatus().getCode()).isEqualTo(Status.StatusCode.STATUS_CODE_UNSET);
        assertThat(received.attributes()).containsEntry("http.request.method", "GET")
                .containsEntry("url.path", "/orders")
                .containsEntry("http.route", "orders")
                .containsEntry("http.response.status_code", "200")
                .containsEntry("client.address", "127.0.0.1")
                .containsEntry("tollgate.listener", "http")
                .containsKey("tollgate.upstream");

        Span attempt = attempts(upstream[1], 1).get(0);
        assertThat(attempt.getParentSpanId()).isEqualTo(span.getSpanId());
        assertThat(attempt.getSpanId()).isNotEqualTo(span.getSpanId());
        assertThat(attempt.getName()).isEqualTo("GET /orders");
        assertThat(attempt.getStartTimeUnixNano()).isBetween(span.getStartTimeUnixNano(), span.getEndTimeUnixNano());
        assertThat(attempt.getEndTimeUnixNano()).isBetween(attempt.getStartTimeUnixNano(), span.getEndTimeUnixNano());
        assertThat(attributes(attempt)).containsEntry("tollgate.attempt", "1")
                .containsEntry("http.response.status_code", "200")
                .containsEntry("tollgate.upstream", received.attributes().get("tollgate.upstream"));
    }

    @Test
    void eachRetryIsAChildSpanOfItsOwn() throws Exception {
        String trace = "abf92f3577b34da6a3ce929d0e0e4736";
        HttpResponse<String> answer = client.send(HttpRequest.newBuilder(gateway.uri("retry", "/flaky"))
                .header("traceparent", "00-" + trace + "-" + CALLER_SPAN + "-01").timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(200);

        List<Span> attempts = attempts(trace, 2);
        Span exchange = receiver.awaitTrace(trace, 3).stream().map(OtlpReceiver.Received::span)
                .filter(s -> s.getKind() == Span.SpanKind.SPAN_KIND_SERVER).findFirst().orElseThrow();
        assertThat(hex(exchange.getParentSpanId().toByteArray())).isEqualTo(CALLER_SPAN);
        assertThat(attempts).allSatisfy(a -> assertThat(a.getParentSpanId()).isEqualTo(exchange.getSpanId()));
        assertThat(attempts.get(0).getSpanId()).isNotEqualTo(attempts.get(1).getSpanId());
        assertThat(attributes(attempts.get(0))).containsEntry("tollgate.attempt", "1")
                .containsEntry("http.response.status_code", "503");
        assertThat(attempts.get(0).getStatus().getCode()).isEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
        assertThat(attributes(attempts.get(1))).containsEntry("tollgate.attempt", "2")
                .containsEntry("http.response.status_code", "200");
        assertThat(attempts.get(1).getStatus().getCode()).isEqualTo(Status.StatusCode.STATUS_CODE_UNSET);
        assertThat(attempts.get(1).getStartTimeUnixNano()).isGreaterThanOrEqualTo(attempts.get(0).getEndTimeUnixNano());
    }

    @Test
    void failedHttpRequestHasAnErrorStatus() throws Exception {
        String trace = "9bf92f3577b34da6a3ce929d0e0e4736";
        send("/fail", 503, "00-" + trace + "-" + CALLER_SPAN + "-01");
        Span span = receiver.awaitTrace(trace).span();
        assertThat(hex(span.getParentSpanId().toByteArray())).isEqualTo(CALLER_SPAN);
        assertThat(span.getStatus().getCode()).isEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
        assertThat(span.getStatus().getMessage()).isEqualTo("503");
    }

    @Test
    void boltSpanGoesOverOtlpGrpcWithTheRpcAttributes() throws Exception {
        String trace = "5bf92f3577b34da6a3ce929d0e0e4736";
        RpcInvokeContext.getContext().addCustomHeader("traceparent", "00-" + trace + "-" + CALLER_SPAN + "-01");
        sofa.refer(gateway.port("bolt")).echo("bolt");
        String[] upstream = recording.traceparent();

        OtlpReceiver.Received received = receiver.awaitSpan(upstream[2]);
        assertThat(received.channel()).isEqualTo("grpc");
        assertThat(received.serviceName()).isEqualTo("tollgate");
        assertThat(hex(received.span().getTraceId().toByteArray())).isEqualTo(trace);
        assertThat(hex(received.span().getParentSpanId().toByteArray())).isEqualTo(CALLER_SPAN);
        assertThat(received.attributes()).containsEntry("rpc.system", "sofarpc")
                .containsEntry("rpc.service", EchoService.class.getName() + ":1.0")
                .containsEntry("rpc.method", "echo")
                .containsEntry("http.route", "sofa-route")
                .containsEntry("http.response.status_code", "200");

        Span attempt = attempts(trace, 1).get(0);
        assertThat(attempt.getParentSpanId()).isEqualTo(received.span().getSpanId());
        assertThat(attributes(attempt)).containsEntry("rpc.system", "sofarpc")
                .containsEntry("tollgate.upstream", "127.0.0.1:" + sofa.port())
                .containsEntry("tollgate.attempt", "1")
                .containsEntry("http.response.status_code", "200");
    }

    @Test
    void dubboSpanGoesOverOtlpGrpcWithTheRpcAttributes() throws Exception {
        String trace = "6bf92f3577b34da6a3ce929d0e0e4736";
        RpcContext.getClientAttachment().setAttachment("traceparent", "00-" + trace + "-" + CALLER_SPAN + "-01");
        String[] upstream = dubbo.service().attachment("traceparent").split("-");

        OtlpReceiver.Received received = receiver.awaitSpan(upstream[2]);
        assertThat(received.channel()).isEqualTo("grpc");
        assertThat(received.attributes()).containsEntry("rpc.system", "dubbo")
                .containsEntry("rpc.method", "attachment")
                .containsEntry("http.route", "dubbo-route");
        assertThat(received.attributes().get("rpc.service")).endsWith("DubboEchoService");
    }

    private static HttpResponse<String> send(String path, int status, String... traceparent) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(gateway.uri("http", path)).timeout(Duration.ofSeconds(10));
        if (traceparent.length > 0) {
            request.header("traceparent", traceparent[0]);
        }
        HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(status);
        return response;
    }

    /** The traceparent the upstream echoed, split at its dashes. */
    private static String[] traceparent(HttpResponse<String> echo) {
        return echo.body().lines().filter(l -> l.startsWith("h-traceparent: ")).findFirst().orElseThrow()
                .substring("h-traceparent: ".length()).split("-");
    }

    /** The {@code count} attempt spans of trace {@code traceId}, in the order of their number. */
    private static List<Span> attempts(String traceId, int count) throws InterruptedException {
        List<Span> attempts = receiver.awaitTrace(traceId, count + 1).stream().map(OtlpReceiver.Received::span)
                .filter(s -> s.getKind() == Span.SpanKind.SPAN_KIND_CLIENT)
                .sorted(Comparator.comparing(s -> attributes(s).get("tollgate.attempt"))).toList();
        assertThat(attempts).hasSize(count);
        return attempts;
    }

    private static Map<String, String> attributes(Span span) {
        return new OtlpReceiver.Received(span, null, null, null).attributes();
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
