package io.tollgate.filters.fault;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterFactory;
import java.time.Duration;
import java.util.Set;

/**
 * Reads the {@code fault} filter's settings ({@code delay}, {@code abort}, {@code headers},
 * {@code seed}) and makes the filter. At least one of delay and abort is required.
 */
public final class FaultFilterFactory implements StreamFilterFactory {

    @Override
    public String name() {
        return "fault";
    }

    @Override
    public Set<String> keys() {
        return Set.of("delay", "abort", "headers", "seed");
    }

    @Override
    public StreamFilterConfig parse(ConfigNode node, StreamFilterConfig base) {
        FaultSettings.Delay delay = node.optional("delay").map(FaultFilterFactory::delay).orElse(null);
        FaultSettings.Abort abort = node.optional("abort").map(FaultFilterFactory::abort).orElse(null);
        if (delay == null && abort == null) {
            throw node.error("needs a delay or an abort (found neither)");
        }
        Long seed = node.has("seed") ? node.longValue("seed", 0, Long.MIN_VALUE, Long.MAX_VALUE) : null;
        return base.withSettings(new FaultSettings(delay, abort, node.stringMap("headers"), seed));
    }

    private static FaultSettings.Delay delay(ConfigNode n) {
        n.allowOnly(Set.of("fixed_delay", "header_delay", "percentage"));
        boolean fromHeader = n.bool("header_delay", false);
        if (fromHeader == n.has("fixed_delay")) {
            throw n.error("needs exactly one of fixed_delay and header_delay: true");
        }
        Duration fixed = fromHeader ? Duration.ZERO : n.positiveDuration("fixed_delay", Duration.ZERO);
        return new FaultSettings.Delay(fixed, fromHeader, percentage(n));
    }

    private static FaultSettings.Abort abort(ConfigNode n) {
        n.allowOnly(Set.of("http_status", "grpc_status", "header_abort", "percentage"));
        boolean fromHeader = n.bool("header_abort", false);
        if (fromHeader == n.has("http_status")) {
            throw n.error("needs exactly one of http_status and header_abort: true");
        }
        int status = fromHeader ? 0 : n.integer("http_status", 0, 200, 599);
        int grpcStatus = n.integer("grpc_status", -1, 0, 16);
        return new FaultSettings.Abort(status, grpcStatus, fromHeader, percentage(n));
    }

    private static double percentage(ConfigNode n) {
        if (!n.has("percentage")) {
            return 100;
        }
        double percentage = n.child("percentage").asDouble();
        if (!(percentage >= 0 && percentage <= 100)) {
            throw n.child("percentage").error(percentage + " (expected 0 to 100)");
        }
        return percentage;
    }

    @Override
    public StreamFilter create(StreamFilterConfig config, FilterScope scope) {
        return new FaultFilter(config.settings(FaultSettings.class), scope);
    }
}
