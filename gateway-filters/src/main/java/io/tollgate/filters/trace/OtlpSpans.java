package io.tollgate.filters.trace;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import io.tollgate.filters.trace.export.BatchEncoder;
import java.util.List;

/**
 * A batch of finished spans as OTLP's {@code ExportTraceServiceRequest}: one resource (its
 * {@code service.name}) and one instrumentation scope ({@code tollgate}) holding each span as kind
 * {@code SERVER}, with attributes named by OpenTelemetry's semantic conventions
 * ({@code http.request.method}, {@code url.path}, {@code http.response.status_code}; or
 * {@code rpc.system}, {@code rpc.service}, {@code rpc.method}; {@code http.route},
 * {@code client.address}) and the gateway's own ({@code tollgate.*}); a 5xx sets the status to
 * error; each upstream attempt a span of kind {@code CLIENT} numbered in {@code tollgate.attempt},
 * in error also when its host gave no answer. A trace id OTLP cannot take (other than hex of up to 32 digits) leaves its span out; a
 * shorter one (B3's 64-bit, SOFA's) is left-padded with zeros to 128 bits. As an
 * {@link BatchEncoder}, the request's protobuf bytes: the body of OTLP/HTTP.
 */
final class OtlpSpans implements BatchEncoder<FinishedSpan> {

    /** The instrumentation scope the spans are reported under. */
    static final String SCOPE = "tollgate";

    private final Resource resource;

    OtlpSpans(String serviceName) {
        this.resource = Resource.newBuilder().addAttributes(attribute("service.name", serviceName)).build();
    }

    @Override
    public byte[] encode(List<FinishedSpan> batch) {
        return request(batch).toByteArray();
    }

    /** The export request of {@code batch}. */
    ExportTraceServiceRequest request(List<FinishedSpan> batch) {
        ScopeSpans.Builder scope = ScopeSpans.newBuilder().setScope(InstrumentationScope.newBuilder().setName(SCOPE));
        for (FinishedSpan span : batch) {
            String traceId = ZipkinJson.traceId(span.span().traceId());
            if (traceId != null) {
                scope.addSpans(span(span, traceId.length() == 32 ? traceId : "0".repeat(16) + traceId));
            }
        }
        return ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder().setResource(resource).addScopeSpans(scope))
                .build();
    }

    private static Span span(FinishedSpan s, String traceId) {
        long start = s.startEpochMicros() * 1000;
        Span.Builder span = Span.newBuilder()
                .setTraceId(bytes(traceId))
                .setSpanId(bytes(s.span().spanId()))
                .setName(s.name())
                .setKind(s.client() ? Span.SpanKind.SPAN_KIND_CLIENT : Span.SpanKind.SPAN_KIND_SERVER)
                .setStartTimeUnixNano(start)
                .setEndTimeUnixNano(start + Math.max(1, s.durationMicros()) * 1000);
        String parent = s.span().parentSpanId();
        if (parent != null && TraceIds.isId(parent, 16)) {
            span.setParentSpanId(bytes(parent));
        }
        if (s.rpc()) {
            add(span, "rpc.system", ZipkinJson.rpcSystem(s.protocol()));
            add(span, "rpc.service", s.service());
            add(span, "rpc.method", s.method());
        } else {
            add(span, "http.request.method", s.method());
            add(span, "url.path", s.path());
        }
        if (s.status() != 0 || !s.client()) {
            add(span, "http.response.status_code", s.status());
        }
        add(span, "http.route", s.route());
        add(span, "client.address", s.peerAddress());
        add(span, "tollgate.protocol", s.protocol());
        add(span, "tollgate.listener", s.listener());
        add(span, "tollgate.upstream", s.upstreamHost());
        if (s.client()) {
            add(span, "tollgate.attempt", s.attempt());
        }
        if (s.error()) {
            span.setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR)
                    .setMessage(s.status() == 0 ? ZipkinJson.NO_ANSWER : Integer.toString(s.status())));
        }
        return span.build();
    }

    private static void add(Span.Builder span, String key, String value) {
        if (value != null && !value.isEmpty()) {
            span.addAttributes(attribute(key, value));
        }
    }

    private static void add(Span.Builder span, String key, long value) {
        span.addAttributes(KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setIntValue(value)));
    }

    private static KeyValue attribute(String key, String value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value)).build();
    }

    /** Lower-case hex, of even length, as bytes. */
    private static ByteString bytes(String hex) {
        byte[] out = new byte[hex.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(hex, 2 * i, 2 * i + 2, 16);
        }
        return ByteString.copyFrom(out);
    }
}
