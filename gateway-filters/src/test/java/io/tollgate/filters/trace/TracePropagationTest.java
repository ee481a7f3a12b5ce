package io.tollgate.filters.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TracePropagationTest {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String SPAN = "00f067aa0ba902b7";
    private static final TracePropagation W3C_ONLY = new TracePropagation(List.of(TraceFormat.W3C));

    @Test
    void keepsTheW3cTraceIdAndFlagsAndMakesTheGatewaysSpanTheParent() {
        MapHeaders headers = new MapHeaders("traceparent", "00-" + TRACE + "-" + SPAN + "-03", "tracestate", "a=b");

        TraceSpan span = W3C_ONLY.apply(headers);

        assertThat(span.traceId()).isEqualTo(TRACE);
        assertThat(span.parentSpanId()).isEqualTo(SPAN);
        assertThat(span.spanId()).matches("[0-9a-f]{16}").isNotEqualTo(SPAN);
        assertThat(headers.get("traceparent")).isEqualTo("00-" + TRACE + "-" + span.spanId() + "-03");
        assertThat(headers.get("tracestate")).isEqualTo("a=b");
    }

    @Test
    void aNewTraceLeftUnsampledByTheRatioSaysSoInEveryFormat() {
        TracePropagation never = new TracePropagation(List.of(TraceFormat.W3C, TraceFormat.B3, TraceFormat.B3_SINGLE), 0);
        MapHeaders headers = new MapHeaders();

        TraceSpan span = never.apply(headers);

        assertThat(span.sampled()).isFalse();
        assertThat(headers.get("traceparent")).endsWith("-00");
        assertThat(headers.get("x-b3-sampled")).isEqualTo("0");
        assertThat(headers.get("b3")).endsWith("-0");
        assertThat(W3C_ONLY.apply(new MapHeaders()).sampled()).isTrue();
    }

    @Test
    void theCallersDecisionWinsOverTheRatio() {
        TracePropagation never = new TracePropagation(List.of(TraceFormat.W3C), 0);
        assertThat(never.apply(new MapHeaders("traceparent", "00-" + TRACE + "-" + SPAN + "-01")).sampled()).isTrue();
        assertThat(W3C_ONLY.apply(new MapHeaders("traceparent", "00-" + TRACE + "-" + SPAN + "-00")).sampled()).isFalse();
        assertThat(W3C_ONLY.apply(new MapHeaders("x-b3-traceid", TRACE, "x-b3-spanid", SPAN, "x-b3-sampled", "0"))
                .sampled()).isFalse();
        assertThat(never.apply(new MapHeaders("x-b3-traceid", TRACE, "x-b3-spanid", SPAN, "x-b3-flags", "1"))
                .sampled()).isTrue();
        assertThat(W3C_ONLY.apply(new MapHeaders("b3", TRACE + "-" + SPAN + "-0")).sampled()).isFalse();
        assertThat(never.apply(new MapHeaders("b3", TRACE + "-" + SPAN + "-d")).sampled()).isTrue();
        // no decision carried: the ratio decides
        assertThat(never.apply(new MapHeaders("x-b3-traceid", TRACE, "x-b3-spanid", SPAN)).sampled()).isFalse();
        assertThat(never.apply(new MapHeaders("rpc_trace_context.sofaTraceId", "0a1b2c3d1700000000001")).sampled())
                .isFalse();
    }

    @Test
    void readsALaterVersionWithMoreFieldsAndWritesVersion00() {
        MapHeaders headers = new MapHeaders("traceparent", "01-" + TRACE + "-" + SPAN + "-01-extra");

        TraceSpan span = W3C_ONLY.apply(headers);

        assertThat(span.traceId()).isEqualTo(TRACE);
        assertThat(headers.get("traceparent")).isEqualTo("00-" + TRACE + "-" + span.spanId() + "-01");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
        "garbage"})
    void startsANewTraceInsteadOfAnInvalidTraceparent(String invalid) {
        MapHeaders headers = new MapHeaders("traceparent", invalid);

        TraceSpan span = W3C_ONLY.apply(headers);

        assertThat(span.traceId()).matches("[0-9a-f]{32}").isNotEqualTo(TRACE);
        assertThat(span.parentSpanId()).isNull();
        assertThat(headers.get("traceparent")).isEqualTo("00-" + span.traceId() + "-" + span.spanId() + "-01");
    }

    @Test
    void givesB3HeadersANewSpanUnderTheCallers() {
        MapHeaders headers = new MapHeaders("X-B3-TraceId", SPAN, "X-B3-SpanId", SPAN, "X-B3-Sampled", "0");

        TraceSpan span = W3C_ONLY.apply(headers);

        assertThat(span.traceId()).isEqualTo(SPAN);
        assertThat(headers.get("x-b3-spanid")).isEqualTo(span.spanId());
        assertThat(headers.get("x-b3-parentspanid")).isEqualTo(SPAN);
        assertThat(headers.get("x-b3-sampled")).isEqualTo("0");
        assertThat(headers.get("traceparent")).isNull();
    }

    @Test
    void givesTheSingleB3HeaderANewSpanUnderTheCallers() {
        MapHeaders withSampling = new MapHeaders("b3", TRACE + "-" + SPAN + "-1-" + "a2fb4a1d1a96d312");
        TraceSpan span = W3C_ONLY.apply(withSampling);
        assertThat(withSampling.get("b3")).isEqualTo(TRACE + "-" + span.spanId() + "-1-" + SPAN);

        MapHeaders bare = new MapHeaders("b3", TRACE + "-" + SPAN);
        span = W3C_ONLY.apply(bare);
        assertThat(bare.get("b3")).isEqualTo(TRACE + "-" + span.spanId());
        assertThat(span.parentSpanId()).isEqualTo(SPAN);
    }

    @Test
    void leavesALoneB3SamplingStateAloneAndStartsATrace() {
        MapHeaders headers = new MapHeaders("b3", "0");

        TraceSpan span = W3C_ONLY.apply(headers);

        assertThat(headers.get("b3")).isEqualTo("0");
        assertThat(span.parentSpanId()).isNull();
        assertThat(headers.get("traceparent")).contains(span.traceId());
    }

    @Test
    void usesOneSpanIdForEveryFormatTheRequestCarries() {
        MapHeaders headers = new MapHeaders("traceparent", "00-" + TRACE + "-" + SPAN + "-01", "X-B3-TraceId", TRACE,
                "X-B3-SpanId", SPAN, "rpc_trace_context.sofaTraceId", "0a1b2c", "rpc_trace_context.sofaRpcId", "0.1.2");

        TraceSpan span = W3C_ONLY.apply(headers);

        assertThat(headers.get("traceparent")).endsWith(span.spanId() + "-01");
        assertThat(headers.get("x-b3-spanid")).isEqualTo(span.spanId());
        assertThat(headers.get("rpc_trace_context.sofaTraceId")).isEqualTo("0a1b2c");
        assertThat(headers.get("rpc_trace_context.sofaRpcId")).isEqualTo("0.1.2.1");
    }

    @Test
    void sofaContextAloneKeepsItsTraceId() {
        MapHeaders headers = new MapHeaders("rpc_trace_context.sofaTraceId", "0a1b2c");

        TraceSpan span = W3C_ONLY.apply(headers);

        assertThat(span.traceId()).isEqualTo("0a1b2c");
        assertThat(headers.get("rpc_trace_context.sofaRpcId")).isEqualTo("0.1");
        assertThat(headers.get("traceparent")).isNull();
    }

    @Test
    void startsNewTracesInEveryConfiguredFormat() {
        MapHeaders headers = new MapHeaders();

        TraceSpan span = new TracePropagation(List.of(TraceFormat.values())).apply(headers);

        assertThat(headers.get("traceparent")).isEqualTo("00-" + span.traceId() + "-" + span.spanId() + "-01");
        assertThat(headers.get("x-b3-traceid")).isEqualTo(span.traceId());
        assertThat(headers.get("x-b3-spanid")).isEqualTo(span.spanId());
        assertThat(headers.get("x-b3-sampled")).isEqualTo("1");
        assertThat(headers.get("b3")).isEqualTo(span.traceId() + "-" + span.spanId() + "-1");
        assertThat(headers.get("rpc_trace_context.sofaTraceId")).isEqualTo(span.traceId());
        assertThat(headers.get("rpc_trace_context.sofaRpcId")).isEqualTo("0.1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0.", ".1", "0..1", "a.1", "0.1x"})
    void aMalformedSofaRpcIdCountsAsTheRoot(String rpcId) {
        assertThat(SofaRpcIds.child(rpcId)).isEqualTo("0.1");
    }
}
