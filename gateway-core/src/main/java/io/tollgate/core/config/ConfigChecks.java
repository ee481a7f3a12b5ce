package io.tollgate.core.config;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The checks of single values that more than one section reader makes (names, header names, paths,
 * regular expressions, enumerations), each failing at the node it read, so that every section
 * reports a bad value in the same words.
 */
public final class ConfigChecks {

    private ConfigChecks() {
    }

    /** Fails at {@code n} unless {@code path} is an absolute path. */
    public static void absolutePath(ConfigNode n, String path) {
        n.build(() -> {
            FieldRules.absolutePath("", path);
            return path;
        });
    }

    /** The priority named at {@code key}, {@code default} when absent. */
    public static RoutingPriority priority(ConfigNode n, String key) {
        if (!n.has(key)) {
            return RoutingPriority.DEFAULT;
        }
        ConfigNode value = n.child(key);
        return RoutingPriority.named(value.asString()).orElseThrow(() -> value.error("unknown priority '"
                + value.asString() + "' (expected one of " + Arrays.stream(RoutingPriority.values())
                        .map(RoutingPriority::configName).toList() + ")"));
    }

    /** {@code name} in lower case, when it is a valid header name; {@code n} is where it was read. */
    public static String headerName(ConfigNode n, String name) {
        if (name.isEmpty()) {
            throw n.error("'' is not a valid header name");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c <= ' ' || c >= 127 || c == ':') {
                throw n.error("'" + name + "' is not a valid header name");
            }
        }
        return name.toLowerCase(Locale.ROOT);
    }

    public static <E extends Enum<E>> E enumValue(ConfigNode n, String key, E defaultValue) {
        if (!n.has(key)) {
            return defaultValue;
        }
        String name = n.string(key);
        for (E value : defaultValue.getDeclaringClass().getEnumConstants()) {
            if (value.name().equals(name)) {
                return value;
            }
        }
        throw n.child(key).error("'" + name + "' (expected one of "
                + List.of(defaultValue.getDeclaringClass().getEnumConstants()) + ")");
    }

    /** Fails at {@code n} unless {@code regex} is a valid RE2 expression. */
    public static void regex(ConfigNode n, String regex) {
        n.build(() -> {
            FieldRules.regex("", regex);
            return regex;
        });
    }

    public static void unique(ConfigNode list, List<String> names) {
        unique(list, names, "name");
    }

    /** Reports each element of {@code list} whose key repeats an earlier one; empty keys are not compared. */
    public static void unique(ConfigNode list, List<String> keys, String keyName) {
        Map<String, Integer> first = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            Integer earlier = key.isEmpty() ? null : first.putIfAbsent(key, i);
            if (earlier != null) {
                list.element(i).report(keyName + " '" + key + "' is already used by " + list.path()
                        + "[" + earlier + "] (expected each " + keyName + " once)");
            }
        }
    }
}
