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
 * field that caused it and the value that was expected. Public so that extension factories (see
 * {@code io.tollgate.core.extension.ExtensionFactory}) read and validate their own settings with the
 * same messages as the rest of the configuration.
 */
public final class ConfigNode {

    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

    private final JsonNode node;
    private final String path;

    ConfigNode(JsonNode node, String path) {
        this.node = node;
        this.path = path;
    }

    /** The path of this node, e.g. {@code clusters[0].lb_policy}; empty at the root. */
    public String path() {
        return path;
    }

    /** An error about this node: {@code message} after its path. */
    public ConfigException error(String message) {
        return new ConfigException((path.isEmpty() ? "<root>" : path) + ": " + message);
    }

    /** Fails when this object holds a key outside {@code allowed}: a typo must not pass silently. */
    public ConfigNode allowOnly(Set<String> allowed) {
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

    /** Whether this object holds {@code key} with a value other than null. */
    public boolean has(String key) {
        return node.isObject() && node.has(key) && !node.get(key).isNull();
    }

    /** The node at {@code key} of this object, present or not. */
    public ConfigNode child(String key) {
        String childPath = path.isEmpty() ? key : path + "." + key;
        return new ConfigNode(node.path(key), childPath);
    }

    /** The element at {@code index} of this list node. */
    public ConfigNode element(int index) {
        return new ConfigNode(node.path(index), path + "[" + index + "]");
    }

    /** The node at {@code key}; fails when it is absent. */
    public ConfigNode required(String key) {
        requireObject();
        if (!has(key)) {
            throw child(key).error("required");
        }
        return child(key);
    }

    /** The node at {@code key}, if present. */
    public Optional<ConfigNode> optional(String key) {
        requireObject();
        return has(key) ? Optional.of(child(key)) : Optional.empty();
    }

    /** This scalar as text. */
    public String asString() {
        if (!node.isValueNode() || node.isNull()) {
            throw error("must be a string");
        }
        return node.asText();
    }

    /** The required, non-empty text at {@code key}. */
    public String string(String key) {
        String value = required(key).asString();
        if (value.isEmpty()) {
            throw child(key).error("must not be empty");
        }
        return value;
    }

    /** The text at {@code key}, or {@code defaultValue} when absent. */
    public String string(String key, String defaultValue) {
        return optional(key).map(ConfigNode::asString).orElse(defaultValue);
    }

    /** The text at {@code key}, if present. */
    public Optional<String> optionalString(String key) {
        return optional(key).map(ConfigNode::asString);
    }

    /** This scalar as an integer within {@code min..max}. */
    public long asLong(long min, long max) {
        if (!node.canConvertToLong() || !node.isIntegralNumber()) {
            throw error("must be an integer (expected: " + min + ".." + max + ")");
        }
        long value = node.asLong();
        if (value < min || value > max) {
            throw error(value + " (expected: " + min + ".." + max + ")");
        }
        return value;
    }

    /** This scalar as a number. */
    public double asDouble() {
        if (!node.isNumber()) {
            throw error("must be a number");
        }
        return node.asDouble();
    }

    /** The integer at {@code key} within {@code min..max}, or {@code defaultValue} when absent. */
    public int integer(String key, int defaultValue, int min, int max) {
        return optional(key).map(n -> (int) n.asLong(min, max)).orElse(defaultValue);
    }

    /** The integer at {@code key} within {@code min..max}, or {@code defaultValue} when absent. */
    public long longValue(String key, long defaultValue, long min, long max) {
        return optional(key).map(n -> n.asLong(min, max)).orElse(defaultValue);
    }

    /** The boolean at {@code key}, or {@code defaultValue} when absent. */
    public boolean bool(String key, boolean defaultValue) {
        return optional(key).map(n -> {
            if (!n.node.isBoolean()) {
                throw n.error("must be true or false");
            }
            return n.node.asBoolean();
        }).orElse(defaultValue);
    }

    /** Reads a duration written as {@code 250ms}, {@code 15s}, {@code 2m} or {@code 1h}. */
    public Duration duration(String key, Duration defaultValue) {
        return optional(key).map(ConfigNode::asDuration).orElse(defaultValue);
    }

    /** This scalar as a duration, written as for {@link #duration(String, Duration)}. */
    public Duration asDuration() {
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

    /** {@link #duration(String, Duration)} that must be greater than zero. */
    public Duration positiveDuration(String key, Duration defaultValue) {
        Duration d = duration(key, defaultValue);
        if (d.isZero() || d.isNegative()) {
            throw child(key).error("must be positive");
        }
        return d;
    }

    /** Reads an optional list, mapping each element with its own indexed path. */
    public <T> List<T> list(String key, Function<ConfigNode, T> mapper) {
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

    /** The mapping of text to text at {@code key}, in document order; empty when absent. */
    public Map<String, String> stringMap(String key) {
        if (!has(key)) {
            return Map.of();
        }
        ConfigNode map = child(key);
        map.requireObject();
        Map<String, String> result = new LinkedHashMap<>();
        map.node.fieldNames().forEachRemaining(name -> result.put(name, map.child(name).asString()));
        return result;
    }

    /** Whether this node is a mapping (a value that may be either a scalar or a mapping tells them apart by this). */
    public boolean isMapping() {
        return node.isObject();
    }

    /** The keys of this mapping, in document order. */
    public List<String> keys() {
        requireObject();
        List<String> keys = new ArrayList<>(node.size());
        node.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    private void requireObject() {
        if (!node.isObject()) {
            throw error("must be a mapping");
        }
    }
}
