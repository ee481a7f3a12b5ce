package io.tollgate.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the configuration records into JSON shaped like the YAML they were read from: snake_case
 * field names, durations as {@code 15s}, empty optionals left out. Written by reflection over
 * record components so that a new configuration field shows up without touching this class.
 */
final class ConfigJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ConfigJson() {
    }

    static JsonNode of(Object value) {
        if (value == null) {
            return NODES.nullNode();
        }
        if (value instanceof Optional<?> optional) {
            return of(optional.orElse(null));
        }
        if (value instanceof String s) {
            return NODES.textNode(s);
        }
        if (value instanceof Boolean b) {
            return NODES.booleanNode(b);
        }
        if (value instanceof Integer i) {
            return NODES.numberNode(i);
        }
        if (value instanceof Long l) {
            return NODES.numberNode(l);
        }
        if (value instanceof Double d) {
            return NODES.numberNode(d);
        }
        if (value instanceof Duration d) {
            return NODES.textNode(duration(d));
        }
        if (value instanceof Collection<?> collection) {
            ArrayNode array = NODES.arrayNode();
            collection.forEach(element -> array.add(of(element)));
            return array;
        }
        if (value instanceof Map<?, ?> map) {
            ObjectNode object = NODES.objectNode();
            map.forEach((k, v) -> object.set(String.valueOf(k), of(v)));
            return object;
        }
        if (value instanceof Record record) {
            return record(record);
        }
        return NODES.textNode(value.toString());
    }

    /** Writes a duration in the largest unit that holds it exactly, as the YAML loader reads it. */
    static String duration(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        long millis = d.toMillis();
        if (!Duration.ofMillis(millis).equals(d)) {
            return d.toString();
        }
        if (millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        if (millis % 1000 == 0) {
            return millis / 1000 + "s";
        }
        return millis + "ms";
    }

    private static ObjectNode record(Record record) {
        ObjectNode object = NODES.objectNode();
        for (RecordComponent component : record.getClass().getRecordComponents()) {
            Object value = read(component, record);
            if (value instanceof Optional<?> optional && optional.isEmpty()) {
                continue;
            }
            object.set(snakeCase(component.getName()), of(value));
        }
        return object;
    }

    /**
     * A component's value. Records that are not public (a filter's compiled settings, kept in its
     * package) are read too: their accessors are made accessible, as the dump reads every record.
     */
    private static Object read(RecordComponent component, Record record) {
        try {
            Method accessor = component.getAccessor();
            accessor.trySetAccessible();
            return accessor.invoke(record);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + record.getClass().getSimpleName() + "."
                    + component.getName(), e);
        }
    }

    static String snakeCase(String camelCase) {
        StringBuilder out = new StringBuilder(camelCase.length() + 4);
        for (int i = 0; i < camelCase.length(); i++) {
            char c = camelCase.charAt(i);
            if (Character.isUpperCase(c)) {
                out.append('_').append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
