package io.tollgate.filters.trace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** What Zipkin's JSON and OTLP's messages make of an attempt's span: kind, remote host, missing answers, short ids. */
class SpanEncodingTest {

    private static final String SPAN = "00f067aa0ba902b7";

    private static FinishedSpan attempt(String traceId, String host, int status) {
        return new FinishedSpan(new TraceSpan(traceId, "a0f067aa0ba902b7", SPAN, true), "GET /x", "http", "r",
                1_000_000, 250, status, host, null, "HTTP/1.1", false, "GET", null, "/x", 2);
    }

    private static JsonNode zipkin(FinishedSpan span) throws Exception {
        return new ObjectMapper().readTree(new ZipkinJson("edge").encode(List.of(span))).get(0);
    }

    @Test
    void zipkinAttemptIsAClientSpanWithItsHostAsRemoteEndpoint() throws Exception {
        JsonNode v4 = zipkin(attempt("4bf92f3577b34da6a3ce929d0e0e4736", "10.1.2.3:8080", 503));
        assertThat(v4.path("kind").asText()).isEqualTo("CLIENT");
        assertThat(v4.path("parentId").asText()).isEqualTo(SPAN);
        assertThat(v4.path("remoteEndpoint").path("ipv4").asText()).isEqualTo("10.1.2.3");
        assertThat(v4.path("remoteEndpoint").path("port").asInt()).isEqualTo(8080);
        assertThat(v4.path("tags").path("tollgate.attempt").asText()).isEqualTo("2");
        assertThat(v4.path("tags").path("http.status_code").asText()).isEqualTo("503");
        assertThat(v4.path("tags").path("error").asText()).isEqualTo("503");

        JsonNode v6 = zipkin(attempt("4bf92f3577b34da6a3ce929d0e0e4736", "[::1]:9000", 200));
        assertThat(v6.path("remoteEndpoint").path("ipv6").asText()).isEqualTo("::1");
        assertThat(v6.path("remoteEndpoint").path("port").asInt()).isEqualTo(9000);
        assertThat(v6.path("tags").has("error")).isFalse();
    }

    @Test
    void zipkinAttemptWithoutAnAnswerIsAnErrorWithoutStatusAndANamedHostStaysATag() throws Exception {
        JsonNode span = zipkin(attempt("4bf92f3577b34da6a3ce929d0e0e4736", "backend.internal:80", 0));
        assertThat(span.has("remoteEndpoint")).isFalse();
        assertThat(span.path("tags").path("tollgate.upstream").asText()).isEqualTo("backend.internal:80");
        assertThat(span.path("tags").has("http.status_code")).isFalse();
        assertThat(span.path("tags").path("error").asText()).isEqualTo("no_answer");
    }

    @Test
    void otlpAttemptIsAClientSpanAndAShortTraceIdIsPadded() throws Exception {
        byte[] body = new OtlpSpans("edge").encode(List.of(attempt("463ac35c9f6413ad", "10.1.2.3:8080", 0)));
        ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body);
        Span span = request.getResourceSpans(0).getScopeSpans(0).getSpans(0);
        Map<String, KeyValue> attributes = span.getAttributesList().stream()
                .collect(Collectors.toMap(KeyValue::getKey, kv -> kv));

        assertThat(HexFormat.of().formatHex(span.getTraceId().toByteArray()))
                .isEqualTo("0000000000000000463ac35c9f6413ad");
        assertThat(HexFormat.of().formatHex(span.getParentSpanId().toByteArray())).isEqualTo(SPAN);
        assertThat(span.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_CLIENT);
        assertThat(span.getEndTimeUnixNano() - span.getStartTimeUnixNano()).isEqualTo(250_000);
        assertThat(attributes).doesNotContainKey("http.response.status_code");
        assertThat(attributes.get("tollgate.attempt").getValue().getIntValue()).isEqualTo(2);
        assertThat(span.getStatus().getCode()).isEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
        assertThat(span.getStatus().getMessage()).isEqualTo("no_answer");
        assertThat(request.getResourceSpans(0).getResource().getAttributes(0).getValue().getStringValue())
                .isEqualTo("edge");
    }

    @Test
    void otlpLeavesOutASpanWhoseTraceIdIsNoHex() throws Exception {
        ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(new OtlpSpans("edge").encode(
                List.of(attempt("not-a-trace-id", "10.1.2.3:8080", 200))));
        assertThat(request.getResourceSpans(0).getScopeSpans(0).getSpansCount()).isZero();
    }
}
