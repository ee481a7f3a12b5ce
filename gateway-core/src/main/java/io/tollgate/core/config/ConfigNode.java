package io.tollgate.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A position in a parsed configuration tree that knows its own path, so every error names the
 * field that caused it and the value that was expected. Public so that extension factories (see
 * {@code io.tollgate.core.extension.ExtensionFactory}) read and validate their own settings with the
 * same messages as the rest of the configuration.
 *
 * <p>Every node of a document shares the document's {@link ConfigErrors}: a bad optional field
 * and an unknown key are recorded and the reading goes on (the field read as absent), and an
 * error thrown while reading a list element is recorded and the next element read, so that the
 * document is refused once with every error it holds.
 */
public final class ConfigNode {

    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

    /** Orders nodes as their fields stand in the document; a field that is absent after those present. */
    static final Comparator<ConfigNode> DOCUMENT_ORDER = (a, b) -> {
        List<Integer> x = a.position();
        List<Integer> y = b.position();
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            int order = Integer.compare(x.get(i), y.get(i));
            if (order != 0) {
                return order;
            }
        }
        return Integer.compare(x.size(), y.size());
    };

    private final JsonNode node;
    private final String path;
    private final ConfigErrors errors;
    private final ConfigNode parent;
    /** The key of this node in its parent mapping, or null for a list element. */
    private final String key;
    private final int index;

    /** The root of a document read as a whole: see {@link #read}. */
    public ConfigNode(JsonNode node, String path) {
        this(node, path, new ConfigErrors(), null, null, -1);
    }

    private ConfigNode(JsonNode node, String path, ConfigErrors errors, ConfigNode parent, String key, int index) {
        this.node = node;
        this.path = path;
        this.errors = errors;
        this.parent = parent;
        this.key = key;
        this.index = index;
    }

    /**
     * Reads this root node with {@code reader}, then throws one {@link ConfigException} listing
     * every error recorded on the way, if any.
     */
    public <T> T read(Function<ConfigNode, T> reader) {
        T value;
        try {
            value = errors.guard(this, () -> reader.apply(this));
        } catch (ConfigErrors.GivenUp e) {
            value = null;
        }
        errors.throwIfAny();
        return value;
    }

    /**
     * Reads a part of this node that does not depend on the rest of it, with {@code read}: when
     * the part has errors they are recorded and {@code fallback} is returned, so that the reading
     * of the rest goes on.
     */
    public <T> T independent(Supplier<T> read, T fallback) {
        try {
            return errors.guard(this, read);
        } catch (ConfigErrors.GivenUp e) {
            return fallback;
        }
    }

    /**
     * The block at {@code key} read with {@code reader}, or {@code absent} when there is none: a
     * section of its own, whose errors are recorded (and {@code absent} returned) while the
     * reading of the rest goes on.
     */
    public <T> T section(String key, Function<ConfigNode, T> reader, T absent) {
        return independent(() -> optional(key).map(reader).orElse(absent), absent);
    }

    /** Records an error about this node without ending the reading of the part it is in. */
    public void report(String message) {
        errors.add(this, error(message), false);
    }

    /** Notes that this field names {@code cluster}, checked once the whole file is read ({@link #checkClusterReferences}). */
    public void referenceToCluster(String cluster) {
        errors.referenceToCluster(this, cluster);
    }

    /** Records every cluster named in this document (see {@link #referenceToCluster}) that is not in {@code known}. */
    public void checkClusterReferences(Set<String> known) {
        errors.checkClusters(known);
    }

    /** Reads an optional field with {@code read}; a bad value is recorded and read as {@code absent}. */
    private <T> T field(Supplier<T> read, T absent) {
        try {
            return read.get();
        } catch (ConfigException e) {
            errors.add(this, e, false);
            return absent;
        }
    }

    /** Where this node stands in the document: the index of its key or element at each level. */
    private List<Integer> position() {
        List<Integer> position = parent == null ? new ArrayList<>() : parent.position();
        if (parent != null) {
            position.add(key == null ? index : keyIndex(parent.node, key));
        }
        return position;
    }

    private static int keyIndex(JsonNode mapping, String key) {
        int i = 0;
        for (Iterator<String> names = mapping.fieldNames(); names.hasNext(); i++) {
            if (names.next().equals(key)) {
                return i;
            }
        }
        return i;
    }

    /** The path of this node, e.g. {@code clusters[0].lb_policy}; empty at the root. */
    public String path() {
        return path;
    }

    /** An error about this node: {@code message} after its path. */
    public ConfigException error(String message) {
        return new ConfigException((path.isEmpty() ? "<root>" : path) + ": " + message, this);
    }

    /**
     * Fails when this object holds a key outside {@code allowed}: a typo must not pass silently.
     * Each such key is an error of its own, and the reading goes on without it.
     */
    public ConfigNode allowOnly(Set<String> allowed) {
        requireObject();
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!allowed.contains(name)) {
                child(name).report("unknown field (expected one of " + new TreeSet<>(allowed) + ")");
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
        return new ConfigNode(node.path(key), childPath, errors, this, key, -1);
    }

    /** The element at {@code index} of this list node. */
    public ConfigNode element(int index) {
        return new ConfigNode(node.path(index), path + "[" + index + "]", errors, this, null, index);
    }

    /**
     * Builds the record read at this node with {@code build}: a check of the record's own that
     * fails ({@link InvalidFieldException}) is an error at the field it names, below this node.
     */
    public <T> T build(Supplier<T> build) {
        try {
            return build.get();
        } catch (InvalidFieldException e) {
            throw below(e.field()).error(e.problem());
        }
    }

    /** The node at {@code relative}, keys and indices below this node written as in a path ({@code a.b[2].c}). */
    private ConfigNode below(String relative) {
        ConfigNode at = this;
        for (String step : relative.isEmpty() ? new String[0] : relative.split("\\.")) {
            int bracket = step.indexOf('[');
            at = at.child(bracket < 0 ? step : step.substring(0, bracket));
            while (bracket >= 0) {
                int close = step.indexOf(']', bracket);
                at = at.element(Integer.parseInt(step.substring(bracket + 1, close)));
                bracket = step.indexOf('[', close);
            }
        }
        return at;
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

    /** The required, non-empty text at {@code key}; when it is absent or bad, that is recorded and {@code ""} read. */
    public String string(String key) {
        return field(() -> {
            String value = required(key).asString();
            if (value.isEmpty()) {
                throw child(key).error("must not be empty");
            }
            return value;
        }, "");
    }

    /** The text at {@code key}, or {@code defaultValue} when absent. */
    public String string(String key, String defaultValue) {
        return field(() -> optional(key).map(ConfigNode::asString).orElse(defaultValue), defaultValue);
    }

    /** The text at {@code key}, if present. */
    public Optional<String> optionalString(String key) {
        return field(() -> optional(key).map(ConfigNode::asString), Optional.empty());
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
        return field(() -> optional(key).map(n -> (int) n.asLong(min, max)).orElse(defaultValue), defaultValue);
    }

    /** The integer at {@code key} within {@code min..max}, or {@code defaultValue} when absent. */
    public long longValue(String key, long defaultValue, long min, long max) {
        return field(() -> optional(key).map(n -> n.asLong(min, max)).orElse(defaultValue), defaultValue);
    }

    /** The boolean at {@code key}, or {@code defaultValue} when absent. */
    public boolean bool(String key, boolean defaultValue) {
        return field(() -> optional(key).map(n -> {
            if (!n.node.isBoolean()) {
                throw n.error("must be true or false");
            }
            return n.node.asBoolean();
        }).orElse(defaultValue), defaultValue);
    }

    /** Reads a duration written as {@code 250ms}, {@code 15s}, {@code 2m} or {@code 1h}. */
    public Duration duration(String key, Duration defaultValue) {
        return field(() -> optional(key).map(ConfigNode::asDuration).orElse(defaultValue), defaultValue);
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
        if (d != null && (d.isZero() || d.isNegative())) {
            child(key).report("must be positive");
            return defaultValue;
        }
        return d;
    }

    /**
     * Reads an optional list, mapping each element with its own indexed path. An error in an
     * element is recorded and the next element read; after the last, a list short of an element
     * ends the reading of this node (its own checks of the list would name wrong indices).
     */
    public <T> List<T> list(String key, Function<ConfigNode, T> mapper) {
        if (!has(key)) {
            return List.of();
        }
        ConfigNode list = child(key);
        if (!list.node.isArray()) {
            throw list.error("must be a list");
        }
        List<T> result = new ArrayList<>(list.node.size());
        boolean incomplete = false;
        for (int i = 0; i < list.node.size(); i++) {
            ConfigNode element = list.element(i);
            try {
                result.add(errors.guard(element, () -> mapper.apply(element)));
            } catch (ConfigErrors.GivenUp e) {
                incomplete = true;
            }
        }
        if (incomplete) {
            throw new ConfigErrors.GivenUp();
        }
        return result;
    }

    /** The mapping of text to text at {@code key}, in document order; empty when absent. */
    public Map<String, String> stringMap(String key) {
        if (!has(key)) {
            return Map.of();
        }
        return field(() -> {
            ConfigNode map = child(key);
            map.requireObject();
            Map<String, String> result = new LinkedHashMap<>();
            map.node.fieldNames().forEachRemaining(name -> result.put(name, map.child(name).asString()));
            return result;
        }, Map.of());
    }

    /**
     * The mapping at {@code key} with values of any shape, in document order, as plain Java values:
     * text, {@code Long} or {@code Double}, {@code Boolean}, null, {@code List} and {@code Map}
     * (unmodifiable); empty when absent.
     */
    public Map<String, Object> valueMap(String key) {
        if (!has(key)) {
            return Map.of();
        }
        return field(() -> {
            ConfigNode map = child(key);
            map.requireObject();
            @SuppressWarnings("unchecked")
            Map<String, Object> result = (Map<String, Object>) plain(map.node);
            return result;
        }, Map.of());
    }

    private static Object plain(JsonNode value) {
        if (value.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            value.fields().forEachRemaining(e -> map.put(e.getKey(), plain(e.getValue())));
            return Collections.unmodifiableMap(map);
        }
        if (value.isArray()) {
            List<Object> list = new ArrayList<>(value.size());
            value.forEach(v -> list.add(plain(v)));
            return Collections.unmodifiableList(list);
        }
        if (value.isIntegralNumber() && value.canConvertToLong()) {
            return value.asLong();
        }
        if (value.isNumber()) {
            return value.asDouble();
        }
        if (value.isBoolean()) {
            return value.asBoolean();
        }
        return value.isNull() ? null : value.asText();
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
