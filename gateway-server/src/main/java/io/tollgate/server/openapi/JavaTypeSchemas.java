package io.tollgate.server.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tollgate.protocols.json.JavaType;
import io.tollgate.protocols.json.TypeKind;
import java.util.HashMap;
import java.util.Map;

/**
 * The JSON Schema (2020-12, as OpenAPI 3.1 uses it) of the JSON a Java type is read from and
 * written as by the gateway's JSON mapping (docs/rest-to-rpc.md): integers with their widths, every
 * digit of {@code long}, {@code BigInteger} and {@code BigDecimal} kept as numbers, dates as
 * ISO-8601 date-times, {@code byte[]} as base64, arrays and collections as arrays, maps as objects,
 * enums by their constants' names, and beans as objects of the fields a service definition's
 * {@code types[]} gives (component schemas named after their classes). Anything but a primitive may
 * be {@code null}.
 */
final class JavaTypeSchemas {

    private final OpenApiDocument document;
    /** The entries of the definition's {@code types[]}, by class name. */
    private final Map<String, JsonNode> types = new HashMap<>();

    /**
     * @param definition a Dubbo service definition whose {@code types[]} describe its classes, or
     *     null when there is none (then a bean is any object)
     */
    JavaTypeSchemas(OpenApiDocument document, JsonNode definition) {
        this.document = document;
        if (definition != null) {
            for (JsonNode type : definition.path("types")) {
                String name = type.path("type").asText();
                if (!name.isEmpty()) {
                    types.put(name, type);
                }
            }
        }
    }

    /** The schema of {@code type}, nullable unless it is a primitive. */
    ObjectNode of(JavaType type) {
        ObjectNode schema = nonNull(type);
        return TypeKind.isPrimitive(type) ? schema : nullable(schema);
    }

    /** The schema of a method's return value: {@code null} for {@code void}. */
    ObjectNode returned(JavaType type) {
        if (type.name().equals("void") || type.name().equals("java.lang.Void")) {
            return OpenApiDocument.object().put("type", "null");
        }
        return of(type);
    }

    private ObjectNode nonNull(JavaType type) {
        if (!type.isArray() && type.name().startsWith("java.time.")) {
            return time(type.name());
        }
        return switch (TypeKind.of(type)) {
            case BOOLEAN -> typed("boolean");
            case BYTE -> integer("int32", Byte.MIN_VALUE, Byte.MAX_VALUE);
            case SHORT -> integer("int32", Short.MIN_VALUE, Short.MAX_VALUE);
            case INT -> typed("integer").put("format", "int32");
            case LONG -> typed("integer").put("format", "int64");
            case FLOAT -> typed("number").put("format", "float");
            case DOUBLE -> typed("number").put("format", "double");
            case CHAR -> typed("string").put("minLength", 1).put("maxLength", 1);
            case STRING -> typed("string");
            case BIG_INTEGER -> typed("integer")
                    .put("description", "java.math.BigInteger: every digit kept (a string of the integer is read too)");
            case BIG_DECIMAL -> typed("number")
                    .put("description", "java.math.BigDecimal: exact, its scale kept (a string of the number is read too)");
            case DATE -> typed("string").put("format", "date-time")
                    .put("description", type.name() + ": ISO-8601 (epoch milliseconds are read too)");
            case BINARY -> typed("string").put("contentEncoding", "base64");
            case ARRAY -> array(type.component());
            case COLLECTION -> array(type.argument(0));
            case MAP -> {
                ObjectNode map = typed("object").put("description", "keys are the text of " + type.argument(0));
                map.set("additionalProperties", of(type.argument(1)));
                yield map;
            }
            case ANY -> OpenApiDocument.object().put("description", type.name() + ": any JSON value");
            case BEAN -> bean(type.name());
        };
    }

    private ObjectNode array(JavaType element) {
        ObjectNode array = typed("array");
        array.set("items", of(element));
        return array;
    }

    /** A class of the service's own: an enum or an object of its fields when the definition describes it. */
    private ObjectNode bean(String name) {
        JsonNode definition = types.get(name);
        if (definition == null) {
            return typed("object").put("description", name + ": an object of its fields");
        }
        return document.component(name, () -> {
            JsonNode constants = definition.path("enums");
            if (constants.size() > 0) {
                ObjectNode schema = typed("string").put("title", name);
                ArrayNode names = schema.putArray("enum");
                constants.forEach(names::add);
                return schema;
            }
            ObjectNode schema = typed("object").put("title", name);
            ObjectNode properties = schema.putObject("properties");
            definition.path("properties").properties()
                    .forEach(field -> properties.set(field.getKey(), fieldSchema(field.getValue())));
            return schema;
        });
    }

    /** A field's schema, from its type's name ({@code Object} when it cannot be read). */
    private ObjectNode fieldSchema(JsonNode typeName) {
        JavaType type;
        try {
            type = JavaType.parse(typeName.isTextual() ? typeName.asText() : typeName.path("type").asText());
        } catch (RuntimeException unreadable) {
            type = JavaType.OBJECT;
        }
        return of(type);
    }

    private static ObjectNode time(String name) {
        ObjectNode schema = typed("string").put("description", name + ": ISO-8601 text");
        return switch (name) {
            case "java.time.LocalDate" -> schema.put("format", "date");
            case "java.time.Instant", "java.time.OffsetDateTime", "java.time.ZonedDateTime" ->
                    schema.put("format", "date-time");
            default -> schema;
        };
    }

    private static ObjectNode integer(String format, long minimum, long maximum) {
        return typed("integer").put("format", format).put("minimum", minimum).put("maximum", maximum);
    }

    private static ObjectNode typed(String type) {
        return OpenApiDocument.object().put("type", type);
    }

    /** {@code schema} admitting {@code null} too. */
    static ObjectNode nullable(ObjectNode schema) {
        if (schema.has("$ref")) {
            ObjectNode either = OpenApiDocument.object();
            either.putArray("anyOf").add(schema).add(typed("null"));
            return either;
        }
        JsonNode type = schema.get("type");
        if (type == null) {
            return schema;
        }
        schema.putArray("type").add(type.asText()).add("null");
        if (schema.has("enum")) {
            ((ArrayNode) schema.get("enum")).addNull();
        }
        return schema;
    }
}
