package io.tollgate.filters.fault;

import io.micrometer.core.instrument.Counter;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.FilterStatus;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterContext;
import io.tollgate.filters.FilterCounters;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Delays and aborts a share of requests. A request is first delayed (held on its event loop's
 * timer, never blocking it), then aborted, each by its own draw, as Envoy orders them; an abort is
 * answered in the request's protocol (an HTTP status, a gRPC status, a Bolt or Dubbo error
 * status). Counted in {@code tollgate.filter.fault.delays} and {@code .aborts}, flagged DI and FI
 * in the access log.
 */
final class FaultFilter implements StreamFilter {

    private static final String REASON = "fault_injected";

    private final FaultSettings.Delay delay;
    private final FaultSettings.Abort abort;
    private final Map.Entry<String, String>[] headers;
    private final Random seeded;
    private final Counter delays;
    private final Counter aborts;

    @SuppressWarnings("unchecked")
    FaultFilter(FaultSettings settings, FilterScope scope) {
        this.delay = settings.delay();
        this.abort = settings.abort();
        this.headers = settings.headers().entrySet().toArray(new Map.Entry[0]);
        this.seeded = settings.seed() == null ? null : new Random(settings.seed());
        this.delays = FilterCounters.counter(scope, "tollgate.filter.fault.delays");
        this.aborts = FilterCounters.counter(scope, "tollgate.filter.fault.aborts");
    }

    @Override
    public FilterStatus onRequest(StreamFilterContext context) {
        if (!selected(context)) {
            return FilterStatus.CONTINUE;
        }
        long delayMillis = delayMillis(context);
        boolean aborting = abort != null && drawn(abort.percentage());
        if (delayMillis > 0) {
            delays.increment();
            context.flag(ResponseFlag.DELAY_INJECTED);
            Future<?> timer = context.executor().schedule(() -> delayed(context, aborting), delayMillis,
                    TimeUnit.MILLISECONDS);
            context.state(this, timer);
            return FilterStatus.STOP;
        }
        if (aborting) {
            abort(context);
        }
        return FilterStatus.CONTINUE;
    }

    @Override
    public void onComplete(StreamFilterContext context, int status) {
        Object timer = context.state(this);
        if (timer != null) {
            ((Future<?>) timer).cancel(false);
        }
    }

    private void delayed(StreamFilterContext context, boolean aborting) {
        context.state(this, null);
        if (aborting) {
            abort(context);
        } else {
            context.resume();
        }
    }

    /** Answers with the configured status, or the request's own when read from its headers; none when those are unusable. */
    private void abort(StreamFilterContext context) {
        int httpStatus = abort.httpStatus();
        int grpcStatus = abort.grpcStatus();
        if (abort.fromHeader()) {
            httpStatus = headerNumber(context, FaultSettings.ABORT_HEADER, 200, 599);
            grpcStatus = headerNumber(context, FaultSettings.ABORT_GRPC_HEADER, 0, 16);
            if (httpStatus < 0) {
                context.resume();
                return;
            }
        }
        aborts.increment();
        context.flag(ResponseFlag.FAULT_INJECTED);
        context.respond(httpStatus, grpcStatus, REASON);
    }

    /** The delay this request gets, 0 for none. */
    private long delayMillis(StreamFilterContext context) {
        if (delay == null || !drawn(delay.percentage())) {
            return 0;
        }
        if (!delay.fromHeader()) {
            return delay.fixed().toMillis();
        }
        return Math.max(0, headerNumber(context, FaultSettings.DELAY_HEADER, 0, Integer.MAX_VALUE));
    }

    private boolean selected(StreamFilterContext context) {
        for (Map.Entry<String, String> header : headers) {
            if (!header.getValue().equals(context.requestHeaders().get(header.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private boolean drawn(double percentage) {
        if (percentage >= 100) {
            return true;
        }
        if (percentage <= 0) {
            return false;
        }
        double draw = seeded != null ? seeded.nextDouble() : ThreadLocalRandom.current().nextDouble();
        return draw * 100 < percentage;
    }

    /** The header's value as a number within bounds, or -1 when it is absent or is not one. */
    private static int headerNumber(StreamFilterContext context, String name, int min, int max) {
        String value = context.requestHeaders().get(name);
        if (value == null) {
            return -1;
        }
        try {
            int number = Integer.parseInt(value.trim());
            return number >= min && number <= max ? number : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
