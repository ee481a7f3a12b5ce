package io.tollgate.protocols.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tollgate.protocols.hessian2.Hessian2Exception;
import io.tollgate.protocols.hessian2.Hessian2Object;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Base64;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a value read by {@link io.tollgate.protocols.hessian2.Hessian2ValueReader} into JSON: objects
 * as their fields, enums (hessian's one-field {@code name} objects) as their names, {@code BigDecimal}
 * and {@code BigInteger} as exact numbers, longs as written, dates and {@code java.time} values as
 * ISO-8601 text, {@code byte[]} as base64, map keys as text.
 *
 * <p>A cycle (an object reaching itself) has no JSON form and is refused, and so is a graph whose
 * shared parts would expand past {@link #MAX_NODES} nodes: both raise {@link Hessian2Exception}.
 */
public final class Hessian2ToJson {

    /** The most JSON nodes one answer becomes; refs to shared values count once per appearance. */
    public static final int MAX_NODES = 1_000_000;

    private final boolean dropClassKeys;
    private final Set<Object> open = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    private int nodes;

    private Hessian2ToJson(boolean dropClassKeys) {
        this.dropClassKeys = dropClassKeys;
    }

    /** {@code value} as JSON. */
    public static JsonNode toJson(Object value) {
        return new Hessian2ToJson(false).convert(value);
    }

    /**
     * {@code value} as JSON, leaving out the {@code class} entry Dubbo's generic call adds to each
     * bean it turns into a map, so that a bean reads the same from Dubbo and from SOFARPC.
     */
    public static JsonNode fromDubboGeneric(Object value) {
        return new Hessian2ToJson(true).convert(value);
    }

    private JsonNode convert(Object value) {
        if (++nodes > MAX_NODES) {
            throw new Hessian2Exception("the answer expands past " + MAX_NODES + " JSON values");
        }
        JsonNodeFactory json = ExactJson.nodes();
        if (value == null) {
            return json.nullNode();
        }
        if (value instanceof String text) {
            return json.textNode(text);
        }
        if (value instanceof Boolean flag) {
            return json.booleanNode(flag);
        }
        if (value instanceof Integer number) {
            return json.numberNode(number);
        }
        if (value instanceof Long number) {
            return json.numberNode(number);
        }
        if (value instanceof Double number) {
            return Double.isFinite(number) ? json.numberNode(number) : json.textNode(number.toString());
        }
        if (value instanceof byte[] bytes) {
            return json.textNode(Base64.getEncoder().encodeToString(bytes));
        }
        if (value instanceof Instant instant) {
            return json.textNode(instant.toString());
        }
        if (!open.add(value)) {
            throw new Hessian2Exception("the answer refers to itself (a cycle has no JSON form)");
        }
        try {
            if (value instanceof List<?> list) {
                ArrayNode array = json.arrayNode(list.size());
                list.forEach(element -> array.add(convert(element)));
                return array;
            }
            if (value instanceof Map<?, ?> map) {
                ObjectNode object = json.objectNode();
                map.forEach((key, entry) -> {
                    if (!(dropClassKeys && "class".equals(key) && entry instanceof String)) {
                        object.set(key(key), convert(entry));
                    }
                });
                return object;
            }
            return object((Hessian2Object) value);
        } finally {
            open.remove(value);
        }
    }

    private JsonNode object(Hessian2Object object) {
        JsonNode special = special(object);
        if (special != null) {
            return special;
        }
        ObjectNode fields = ExactJson.nodes().objectNode();
        object.fields().forEach((name, value) -> fields.set(name, convert(value)));
        return fields;
    }

    /** The objects with a JSON form of their own: enums, big numbers, java.time values; else null. */
    private static JsonNode special(Hessian2Object object) {
        Map<String, Object> fields = object.fields();
        JsonNodeFactory json = ExactJson.nodes();
        try {
            if (fields.size() == 1 && fields.get("name") instanceof String name) {
                return json.textNode(name);
            }
            String type = object.type();
            if (type.equals("java.math.BigDecimal") && fields.get("value") instanceof String text) {
                return json.numberNode(new BigDecimal(text));
            }
            if (type.equals("java.math.BigInteger")) {
                return json.numberNode(bigInteger(fields));
            }
            if (type.endsWith(".java8.LocalDateHandle")) {
                return json.textNode(localDate(fields).toString());
            }
            if (type.endsWith(".java8.LocalTimeHandle")) {
                return json.textNode(localTime(fields).toString());
            }
            if (type.endsWith(".java8.LocalDateTimeHandle")
                    && fields.get("date") instanceof Hessian2Object date && fields.get("time") instanceof Hessian2Object time) {
                return json.textNode(localDate(date.fields()).atTime(localTime(time.fields())).toString());
            }
            if (type.endsWith(".java8.InstantHandle")) {
                return json.textNode(Instant.ofEpochSecond(number(fields, "seconds"), number(fields, "nanos")).toString());
            }
        } catch (RuntimeException e) {
            throw new Hessian2Exception("a " + object.type() + " that is none: " + e.getMessage());
        }
        return null;
    }

    private static BigInteger bigInteger(Map<String, Object> fields) {
        if (fields.get("value") instanceof String text) {
            return new BigInteger(text);
        }
        int signum = (int) number(fields, "signum");
        if (!(fields.get("mag") instanceof List<?> magnitude)) {
            throw new IllegalArgumentException("no magnitude");
        }
        byte[] bytes = new byte[magnitude.size() * 4];
        for (int i = 0; i < magnitude.size(); i++) {
            int word = ((Number) magnitude.get(i)).intValue();
            for (int b = 0; b < 4; b++) {
                bytes[i * 4 + b] = (byte) (word >>> (24 - 8 * b));
            }
        }
        return new BigInteger(signum, bytes);
    }

    private static LocalDate localDate(Map<String, Object> fields) {
        return LocalDate.of((int) number(fields, "year"), (int) number(fields, "month"), (int) number(fields, "day"));
    }

    private static LocalTime localTime(Map<String, Object> fields) {
        return LocalTime.of((int) number(fields, "hour"), (int) number(fields, "minute"),
                (int) number(fields, "second"), (int) number(fields, "nano"));
    }

    private static long number(Map<String, Object> fields, String name) {
        if (fields.get(name) instanceof Number number) {
            return number.longValue();
        }
        throw new IllegalArgumentException("no number " + name);
    }

    private static String key(Object key) {
        if (key instanceof String || key instanceof Number || key instanceof Boolean) {
            return key.toString();
        }
        if (key == null) {
            return "null";
        }
        if (key instanceof Hessian2Object object) {
            JsonNode node = special(object);
            if (node != null && node.isValueNode()) {
                return node.asText();
            }
        }
        throw new Hessian2Exception("a map key of type " + key.getClass().getSimpleName() + " has no JSON form");
    }
}
