package io.tollgate.protocols.json;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Whether a JSON value has the shape a Java type takes, for choosing among overloads: numbers for
 * numbers, text for strings, chars, dates, bytes and enums, arrays for arrays and collections,
 * objects for maps and beans, null for anything but a primitive. A date fits ISO text only here,
 * though the writer also takes epoch milliseconds, so that a number never makes a {@code long}
 * overload ambiguous with a {@code Date} one.
 */
public final class JsonShapes {

    private JsonShapes() {
    }

    public static boolean fits(JavaType type, JsonNode value) {
        if (value.isNull()) {
            return !TypeKind.isPrimitive(type);
        }
        return switch (TypeKind.of(type)) {
            case BOOLEAN -> value.isBoolean();
            case BYTE, SHORT, INT, LONG, BIG_INTEGER -> value.isIntegralNumber();
            case FLOAT, DOUBLE, BIG_DECIMAL -> value.isNumber();
            case CHAR -> value.isTextual() && value.textValue().length() == 1;
            case STRING, BINARY -> value.isTextual();
            case DATE -> value.isTextual();
            case ARRAY, COLLECTION -> value.isArray();
            case MAP -> value.isObject();
            case ANY -> true;
            case BEAN -> value.isObject() || value.isTextual();
        };
    }
}
