package io.tollgate.filters.trace;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exports spans as lines of the log {@code io.tollgate.filters.trace.spans} at info, one per span
 * (an upstream attempt's line ends with its number instead of the client's address);
 * the logging backend's appender decides where they go and does the writing.
 */
final class LoggingSpanExporter implements SpanExporter {

    /** The name {@code export} gives this exporter. */
    static final String NAME = "log";

    private static final Logger spans = LoggerFactory.getLogger("io.tollgate.filters.trace.spans");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void export(FinishedSpan s) {
        if (spans.isInfoEnabled()) {
            String format = "span trace_id={} span_id={} parent_id={} name={} listener={} route={} start_us={}"
                    + " duration_us={} status={} upstream={} " + (s.client() ? "attempt={}" : "peer={}");
            spans.info(format, s.span().traceId(), s.span().spanId(), s.span().parentSpanId(), s.name(), s.listener(),
                    s.route(), s.startEpochMicros(), s.durationMicros(), s.status(), s.upstreamHost(),
                    s.client() ? s.attempt() : s.peerAddress());
        }
    }
}
