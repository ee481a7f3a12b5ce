package io.tollgate.admin;

import io.tollgate.core.accesslog.AccessLogEntry;
import java.util.function.Predicate;

/**
 * Which access-log records the console's tail shows; a null field lets every record through.
 *
 * @param status a status ({@code 503}) or a status class ({@code 5xx})
 * @param route the matched route's name
 * @param cluster the cluster the request went to
 * @param flag a response flag code, e.g. {@code UH}, among the record's flags
 */
record AccessLogFilter(String status, String route, String cluster, String flag) implements Predicate<AccessLogEntry> {

    @Override
    public boolean test(AccessLogEntry entry) {
        return statusMatches(entry.status())
                && (route == null || route.equals(entry.route()))
                && (cluster == null || cluster.equals(entry.upstreamCluster()))
                && (flag == null || hasFlag(entry.responseFlags()));
    }

    private boolean statusMatches(int actual) {
        if (status == null) {
            return true;
        }
        if (status.length() == 3 && status.endsWith("xx")) {
            return actual / 100 == status.charAt(0) - '0';
        }
        return status.equals(Integer.toString(actual));
    }

    private boolean hasFlag(String flags) {
        for (String code : flags.split(",")) {
            if (code.equals(flag)) {
                return true;
            }
        }
        return false;
    }
}
