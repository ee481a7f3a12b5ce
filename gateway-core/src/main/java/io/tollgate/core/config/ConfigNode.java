package io.tollgate.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A position in a parsed configuration tree that knows its own path, so every error names the
 * field that caused it and the value that was expected.
 */
final class ConfigNode {

    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

    private final JsonNode node;
    private final String path;

    ConfigNode(JsonNode node, String path) {
        this.node = node;
        this.path = path;
    }

    String path() {
        return path;
    }

    ConfigException error(String message) {
        return new ConfigException((path.isEmpty() ? "<root>" : path) + ": " + message);
    }

    /** Fails when this object holds a key outside {@code allowed}: a typo must not pass silently. */
    ConfigNode allowOnly(Set<String> allowed) {
        requireObject();
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw child(name).error("unknown field (expected one of " + new TreeSet<>(allowed) + ")");
            }
        }
        return this;
    }

    boolean has(String key) {
        return node.isObject() && node.has(key) && !node.get(key).isNull();
    }

    ConfigNode child(String key) {
        String childPath = path.isEmpty() ? key : path + "." + key;
        return new ConfigNode(node.path(key), childPath);
    }

    /** The element at {@code index} of this list node. */
    ConfigNode element(int index) {
        return new ConfigNode(node.path(index), path + "[" + index + "]");
    }

    ConfigNode required(String key) {
        requireObject();
        if (!has(key)) {
            throw child(key).error("required");
        }
        return child(key);
    }

    Optional<ConfigNode> optional(String key) {
        requireObject();
        return has(key) ? Optional.of(child(key)) : Optional.empty();
    }

    String asString() {
        if (!node.isValueNode() || node.isNull()) {
            throw error("must be a string");
        }
        return node.asText();
    }

    String string(String key) {
        String value = required(key).asString();
        if (value.isEmpty()) {
            throw child(key).error("must not be empty");
        }
        return value;
    }

    String string(String key, String defaultValue) {
        return optional(key).map(ConfigNode::asString).orElse(defaultValue);
    }

    Optional<String> optionalString(String key) {
        return optional(key).map(ConfigNode::asString);
    }

    long asLong(long min, long max) {
        if (!node.canConvertToLong() || !node.isIntegralNumber()) {
            throw error("must be an integer (expected: " + min + ".." + max + ")");
        }
        long value = node.asLong();
        if (value < min || value > max) {
            throw error(value + " (expected: " + min + ".." + max + ")");
        }
        return value;
    }

    double asDouble() {
        if (!node.isNumber()) {
            throw error("must be a number");
        }
        return node.asDouble();
    }

    int integer(String key, int defaultValue, int min, int max) {
        return optional(key).map(n -> (int) n.asLong(min, max)).orElse(defaultValue);
    }

    long longValue(String key, long defaultValue, long min, long max) {
        return optional(key).map(n -> n.asLong(min, max)).orElse(defaultValue);
    }

    boolean bool(String key, boolean defaultValue) {
        return optional(key).map(n -> {
            if (!n.node.isBoolean()) {
                throw n.error("must be true or false");
            }
            return n.node.asBoolean();
        }).orElse(defaultValue);
    }

    /** Reads a duration written as {@code 250ms}, {@code 15s}, {@code 2m} or {@code 1h}. */
    Duration duration(String key, Duration defaultValue) {
        return optional(key).map(ConfigNode::asDuration).orElse(defaultValue);
    }

    Duration asDuration() {
        Matcher m = DURATION.matcher(asString().trim());
        if (!m.matches()) {
            throw error("'" + node.asText() + "' is not a duration (expected an integer of at most 9 digits"
                    + " and a unit ms, s, m or h, e.g. 250ms, 15s, 2m, 1h)");
        }
        long amount = Long.parseLong(m.group(1));
        switch (m.group(2)) {
            case "ms":
                return Duration.ofMillis(amount);
            case "s":
                return Duration.ofSeconds(amount);
            case "m":
                return Duration.ofMinutes(amount);
            default:
                return Duration.ofHours(amount);
        }
    }

    /** Reads an optional list, mapping each element with its own indexed path. */
    <T> List<T> list(String key, Function<ConfigNode, T> mapper) {
        if (!has(key)) {
            return List.of();
        }
        ConfigNode list = child(key);
        if (!list.node.isArray()) {
            throw list.error("must be a list");
        }
        List<T> result = new ArrayList<>(list.node.size());
        for (int i = 0; i < list.node.size(); i++) {
            result.add(mapper.apply(list.element(i)));
        }
        return result;
    }

    Map<String, String> stringMap(String key) {
        if (!has(key)) {
            return Map.of();
        }
        ConfigNode map = child(key);
        map.requireObject();
        Map<String, String> result = new LinkedHashMap<>();
        map.node.fieldNames().forEachRemaining(name -> result.put(name, map.child(name).asString()));
        return result;
    }

    private void requireObject() {
        if (!node.isObject()) {
            throw error("must be a mapping");
        }
    }
}
