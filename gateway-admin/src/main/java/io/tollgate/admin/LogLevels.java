package io.tollgate.admin;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.slf4j.LoggerFactory;

/** Changes a logback logger's level at run time, for {@code POST /logging}. */
final class LogLevels {

    private static final Set<String> LEVELS = Set.of("trace", "debug", "info", "warn", "error", "off");

    private LogLevels() {
    }

    /**
     * Sets {@code level} on the logger named by {@code logger}, or on the root logger when the
     * parameter is absent.
     */
    static AdminResponse set(Map<String, List<String>> params) {
        String level = single(params, "level");
        if (level == null || !LEVELS.contains(level.toLowerCase(Locale.ROOT))) {
            return AdminResponse.text(HttpResponseStatus.BAD_REQUEST,
                    "level: " + level + " (expected one of trace, debug, info, warn, error, off)");
        }
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return AdminResponse.text(HttpResponseStatus.NOT_IMPLEMENTED,
                    "logging is not backed by logback: levels cannot be changed here");
        }
        String name = single(params, "logger");
        if (name != null && name.isBlank()) {
            return AdminResponse.text(HttpResponseStatus.BAD_REQUEST,
                    "logger: '" + name + "' (expected a logger name, or no parameter for the root logger)");
        }
        Logger logger = context.getLogger(name == null ? org.slf4j.Logger.ROOT_LOGGER_NAME : name);
        logger.setLevel(Level.toLevel(level));
        return AdminResponse.text(HttpResponseStatus.OK, logger.getName() + " " + logger.getLevel());
    }

    private static String single(Map<String, List<String>> params, String name) {
        List<String> values = params.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }
}
