package io.tollgate.filters.trace;

import io.tollgate.filters.trace.export.BatchEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * Zipkin's v2 JSON span list ({@code POST /api/v2/spans}): each span of kind {@code SERVER} with
 * the local endpoint's service name, the caller as remote endpoint, and tags by protocol
 * ({@code http.method}, {@code http.path}, {@code http.route}, {@code http.status_code}; or
 * {@code rpc.system} {@code sofarpc}/{@code dubbo}/{@code grpc}, {@code rpc.service},
 * {@code rpc.method}, {@code rpc.status_code}), {@code error} on a 5xx, and the upstream host in
 * {@code tollgate.upstream}; each upstream attempt a span of kind {@code CLIENT} with the host as
 * remote endpoint and its number in {@code tollgate.attempt}. Trace ids Zipkin would refuse (a SOFA id of other than 16 or 32 hex digits)
 * are left-padded with zeros to 32 when they are shorter hex, else the span is left out.
 */
final class ZipkinJson implements BatchEncoder<FinishedSpan> {

    /** The error an attempt without any answer (refused, reset, timed out) is marked with. */
    static final String NO_ANSWER = "no_answer";

    private final String serviceName;

    ZipkinJson(String serviceName) {
        this.serviceName = serviceName;
    }

    @Override
    public byte[] encode(List<FinishedSpan> batch) {
        StringBuilder out = new StringBuilder(batch.size() * 512).append('[');
        for (FinishedSpan span : batch) {
            String traceId = traceId(span.span().traceId());
            if (traceId == null) {
                continue;
            }
            if (out.length() > 1) {
                out.append(',');
            }
            span(out, span, traceId);
        }
        return out.append(']').toString().getBytes(StandardCharsets.UTF_8);
    }

    private void span(StringBuilder out, FinishedSpan s, String traceId) {
        out.append("{\"traceId\":\"").append(traceId).append("\",\"id\":\"").append(s.span().spanId()).append('"');
        String parent = s.span().parentSpanId();
        if (parent != null && TraceIds.isId(parent, 16)) {
            out.append(",\"parentId\":\"").append(parent).append('"');
        }
        out.append(",\"kind\":\"").append(s.client() ? "CLIENT" : "SERVER").append("\",\"name\":");
        string(out, s.name());
        out.append(",\"timestamp\":").append(s.startEpochMicros())
                .append(",\"duration\":").append(Math.max(1, s.durationMicros()));
        out.append(",\"localEndpoint\":{\"serviceName\":");
        string(out, serviceName);
        out.append('}');
        if (s.client()) {
            remoteHost(out, s.upstreamHost());
        } else if (s.peerAddress() != null && !s.peerAddress().isEmpty()) {
            out.append(",\"remoteEndpoint\":{\"").append(s.peerAddress().indexOf(':') >= 0 ? "ipv6" : "ipv4")
                    .append("\":");
            string(out, s.peerAddress());
            out.append('}');
        }
        out.append(",\"tags\":{");
        String status = s.status() == 0 && s.client() ? null : Integer.toString(s.status());
        if (s.rpc()) {
            tag(out, "rpc.system", rpcSystem(s.protocol()));
            tag(out, "rpc.service", s.service());
            tag(out, "rpc.method", s.method());
            tag(out, "rpc.status_code", status);
        } else {
            tag(out, "http.method", s.method());
            tag(out, "http.path", s.path());
            tag(out, "http.status_code", status);
        }
        tag(out, "http.route", s.route());
        tag(out, "tollgate.protocol", s.protocol());
        tag(out, "tollgate.listener", s.listener());
        tag(out, "tollgate.upstream", s.upstreamHost());
        if (s.client()) {
            tag(out, "tollgate.attempt", Integer.toString(s.attempt()));
        }
        if (s.error()) {
            tag(out, "error", status == null ? NO_ANSWER : status);
        }
        out.append("}}");
    }

    /**
     * A host's {@code address:port} (IPv6 in brackets) as the remote endpoint; left out when the
     * address is a name, which Zipkin's endpoint cannot hold (the {@code tollgate.upstream} tag has it).
     */
    private static void remoteHost(StringBuilder out, String host) {
        int colon = host == null ? -1 : host.lastIndexOf(':');
        if (colon <= 0 || colon == host.length() - 1 || !only(host, colon + 1, host.length(), "0123456789")) {
            return;
        }
        boolean v6 = host.charAt(0) == '[' && host.charAt(colon - 1) == ']';
        int from = v6 ? 1 : 0;
        int to = v6 ? colon - 1 : colon;
        if (!only(host, from, to, v6 ? "0123456789abcdefABCDEF:." : "0123456789.")) {
            return;
        }
        out.append(",\"remoteEndpoint\":{\"").append(v6 ? "ipv6" : "ipv4").append("\":\"").append(host, from, to)
                .append("\",\"port\":").append(host, colon + 1, host.length()).append('}');
    }

    private static boolean only(String text, int from, int to, String allowed) {
        for (int i = from; i < to; i++) {
            if (allowed.indexOf(text.charAt(i)) < 0) {
                return false;
            }
        }
        return to > from;
    }

    /** The OpenTelemetry {@code rpc.system} of a downstream protocol: {@code sofarpc}, {@code dubbo} or {@code grpc}. */
    static String rpcSystem(String protocol) {
        String lower = protocol == null ? "" : protocol.toLowerCase(Locale.ROOT);
        if (lower.startsWith("bolt")) {
            return "sofarpc";
        }
        return lower.startsWith("dubbo") ? "dubbo" : "grpc";
    }

    /** The id as Zipkin takes it, or null when it cannot be made one. */
    static String traceId(String id) {
        if (TraceIds.isId(id, 32) || TraceIds.isId(id, 16)) {
            return id;
        }
        String lower = id.toLowerCase(Locale.ROOT);
        if (lower.length() > 32 || !TraceIds.isId("0".repeat(32 - lower.length()) + lower, 32)) {
            return null;
        }
        return "0".repeat(32 - lower.length()) + lower;
    }

    private static void tag(StringBuilder out, String key, String value) {
        if (value == null) {
            return;
        }
        if (out.charAt(out.length() - 1) != '{') {
            out.append(',');
        }
        string(out, key);
        out.append(':');
        string(out, value);
    }

    private static void string(StringBuilder out, String value) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
