package io.tollgate.server.health;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.HealthCheckConfig;
import io.tollgate.core.config.HttpHealthCheckConfig;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Registers {@code http} ({@link HttpHealthChecker}); reads
 * {@code http: { path, expected_statuses }}, the statuses as {@code 200} or {@code 200-399}.
 */
public final class HttpHealthCheckerFactory implements HealthCheckerFactory {

    private static final Pattern STATUS_RANGE = Pattern.compile("(\\d{3})(?:-(\\d{3}))?");

    @Override
    public String name() {
        return "http";
    }

    @Override
    public Set<String> keys() {
        return Set.of("http");
    }

    @Override
    public HealthCheckConfig parse(ConfigNode check, HealthCheckConfig base) {
        return check.optional("http").map(n -> {
            n.allowOnly(Set.of("path", "expected_statuses"));
            String path = n.string("path", HttpHealthCheckConfig.DEFAULTS.path());
            if (!path.startsWith("/")) {
                throw n.child("path").error("must start with '/' (was '" + path + "')");
            }
            List<HttpHealthCheckConfig.StatusRange> statuses = n.list("expected_statuses",
                    HttpHealthCheckerFactory::statusRange);
            return base.withHttp(new HttpHealthCheckConfig(path,
                    statuses.isEmpty() ? HttpHealthCheckConfig.DEFAULTS.expectedStatuses() : statuses));
        }).orElse(base);
    }

    @Override
    public HealthChecker create(HealthCheckConfig config) {
        return new HttpHealthChecker(config.http());
    }

    private static HttpHealthCheckConfig.StatusRange statusRange(ConfigNode n) {
        Matcher m = STATUS_RANGE.matcher(n.asString().trim());
        int from = m.matches() ? Integer.parseInt(m.group(1)) : 0;
        int to = m.matches() && m.group(2) != null ? Integer.parseInt(m.group(2)) : from;
        if (from < 100 || to > 599 || from > to) {
            throw n.error("'" + n.asString() + "' is not a status or range (expected e.g. 200 or 200-399, within 100-599)");
        }
        return new HttpHealthCheckConfig.StatusRange(from, to);
    }
}
