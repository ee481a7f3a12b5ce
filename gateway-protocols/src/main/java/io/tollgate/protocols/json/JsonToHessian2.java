package io.tollgate.protocols.json;

import com.fasterxml.jackson.databind.JsonNode;
import io.tollgate.protocols.hessian2.Hessian2ValueWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Writes JSON values as hessian2 values of their declared Java types: numbers at the type's width
 * (refused when out of range, never rounded), {@code BigInteger}/{@code BigDecimal} with every digit,
 * dates from ISO-8601 text or epoch milliseconds, {@code byte[]} from base64, arrays, collections
 * and maps element by element, beans as {@link ObjectForm} says. Where no type is known (an
 * {@code Object} parameter, a field the {@link TypeCatalog} does not describe) the JSON's shape
 * decides: integers as int, long or {@code BigDecimal} as they fit, fractions as double when a
 * double holds them exactly, else {@code BigDecimal}; objects as maps; arrays as lists.
 */
public final class JsonToHessian2 {

    /** The most digits a whole number may have: more is refused, not expanded (1e999999999). */
    private static final int MAX_INTEGER_DIGITS = 1000;

    private final Hessian2ValueWriter out;
    private final ObjectForm form;
    private final TypeCatalog catalog;

    public JsonToHessian2(Hessian2ValueWriter out, ObjectForm form, TypeCatalog catalog) {
        this.out = out;
        this.form = form;
        this.catalog = catalog;
    }

    /**
     * Writes {@code value} as a {@code type}.
     *
     * @param path where the value is, for messages: {@code $[0]}
     * @throws JsonMappingException when it cannot be one
     */
    public void write(JsonNode value, JavaType type, String path) {
        if (value == null || value.isNull()) {
            if (TypeKind.isPrimitive(type)) {
                throw JsonMappingException.at(path, "null for a " + type);
            }
            out.writeNull();
            return;
        }
        TypeKind kind = TypeKind.of(type);
        switch (kind) {
            case BOOLEAN -> {
                if (!value.isBoolean()) {
                    throw mismatch(path, value, type);
                }
                out.writeBoolean(value.booleanValue());
            }
            case BYTE -> out.writeInt(intIn(value, type, path, Byte.MIN_VALUE, Byte.MAX_VALUE));
            case SHORT -> out.writeInt(intIn(value, type, path, Short.MIN_VALUE, Short.MAX_VALUE));
            case INT -> out.writeInt(intIn(value, type, path, Integer.MIN_VALUE, Integer.MAX_VALUE));
            case LONG -> out.writeLong(integer(value, type, path).longValueExact());
            case FLOAT, DOUBLE -> {
                double number = decimal(value, type, path).doubleValue();
                if (!Double.isFinite(number)) {
                    throw JsonMappingException.at(path, "out of range for a " + type);
                }
                out.writeDouble(number);
            }
            case CHAR -> {
                if (!value.isTextual() || value.textValue().length() != 1) {
                    throw JsonMappingException.at(path, "a char must be a string of one char");
                }
                out.writeString(value.textValue());
            }
            case STRING -> {
                if (!value.isTextual()) {
                    throw mismatch(path, value, type);
                }
                out.writeString(value.textValue());
            }
            case BIG_INTEGER -> writeBigInteger(integer(value, type, path));
            case BIG_DECIMAL -> writeBigDecimal(decimal(value, type, path));
            case DATE -> out.writeDate(epochMillis(value, path));
            case BINARY -> writeBinary(value, path);
            case ARRAY -> writeList(value, type.component(),
                    form == ObjectForm.TYPED ? TypeKind.arrayType(type.component()) : null, path);
            case COLLECTION -> writeList(value, type.argument(0),
                    form == ObjectForm.TYPED ? TypeKind.concreteClass(type) : null, path);
            case MAP -> writeMap(value, type, path);
            case ANY -> writeByShape(value, path);
            case BEAN -> writeBean(value, type, path);
            default -> throw new IllegalStateException("kind " + kind);
        }
    }

    private void writeBean(JsonNode value, JavaType type, String path) {
        if (value.isTextual()) {
            writeEnum(value.textValue(), type, path);
            return;
        }
        if (!value.isObject()) {
            throw mismatch(path, value, type);
        }
        if (catalog.enums().contains(type.name())) {
            throw JsonMappingException.at(path, type + " is an enum: give its constant's name as a string");
        }
        List<String> names = new ArrayList<>();
        value.properties().forEach(entry -> names.add(entry.getKey()));
        if (form == ObjectForm.TYPED) {
            out.startObject(type.name(), names);
        } else {
            out.startMap(null);
        }
        for (String name : names) {
            if (form == ObjectForm.MAP) {
                out.writeString(name);
            }
            JavaType fieldType = catalog.fieldType(type.name(), name);
            String fieldPath = path + "." + name;
            if (fieldType != null) {
                write(value.get(name), fieldType, fieldPath);
            } else {
                writeByShape(value.get(name), fieldPath);
            }
        }
        if (form == ObjectForm.MAP) {
            out.endMap();
        }
    }

    /** An enum constant: its name, which Dubbo's generic call turns into the constant; or hessian's enum object. */
    private void writeEnum(String name, JavaType type, String path) {
        if (name.isEmpty()) {
            throw JsonMappingException.at(path, "an empty name for a " + type);
        }
        if (form == ObjectForm.MAP) {
            out.writeString(name);
        } else {
            out.startObject(type.name(), List.of("name"));
            out.writeString(name);
        }
    }

    private void writeList(JsonNode value, JavaType element, String hessianType, String path) {
        if (!value.isArray()) {
            throw JsonMappingException.at(path, "a " + kindOf(value) + " where an array was expected");
        }
        out.startList(hessianType, value.size());
        for (int i = 0; i < value.size(); i++) {
            write(value.get(i), element, path + "[" + i + "]");
        }
        out.endList();
    }

    private void writeMap(JsonNode value, JavaType type, String path) {
        if (!value.isObject()) {
            throw mismatch(path, value, type);
        }
        JavaType keyType = type.argument(0);
        JavaType valueType = type.argument(1);
        out.startMap(form == ObjectForm.TYPED && !type.name().equals("java.util.Map")
                ? TypeKind.concreteClass(type) : null);
        for (Map.Entry<String, JsonNode> entry : value.properties()) {
            String entryPath = path + "." + entry.getKey();
            TypeKind keyKind = TypeKind.of(keyType);
            if (keyKind == TypeKind.STRING || keyKind == TypeKind.ANY || keyKind == TypeKind.BEAN
                    || keyKind == TypeKind.CHAR) {
                write(ExactJson.nodes().textNode(entry.getKey()), keyType, entryPath);
            } else {
                write(keyNumber(entry.getKey(), entryPath), keyType, entryPath);
            }
            write(entry.getValue(), valueType, entryPath);
        }
        out.endMap();
    }

    /** A map key, always text in JSON, as the number its type wants. */
    private static JsonNode keyNumber(String key, String path) {
        try {
            return ExactJson.nodes().numberNode(new BigDecimal(key));
        } catch (NumberFormatException e) {
            throw JsonMappingException.at(path, "the key \"" + key + "\" is no number");
        }
    }

    /** A value of no declared type, by its JSON shape. */
    private void writeByShape(JsonNode value, String path) {
        if (value == null || value.isNull()) {
            out.writeNull();
        } else if (value.isBoolean()) {
            out.writeBoolean(value.booleanValue());
        } else if (value.isTextual()) {
            out.writeString(value.textValue());
        } else if (value.isIntegralNumber()) {
            if (value.canConvertToInt()) {
                out.writeInt(value.intValue());
            } else if (value.canConvertToLong()) {
                out.writeLong(value.longValue());
            } else {
                writeBigDecimal(value.decimalValue());
            }
        } else if (value.isNumber()) {
            BigDecimal exact = value.decimalValue();
            double approximate = exact.doubleValue();
            if (Double.isFinite(approximate) && new BigDecimal(Double.toString(approximate)).compareTo(exact) == 0) {
                out.writeDouble(approximate);
            } else {
                writeBigDecimal(exact);
            }
        } else if (value.isArray()) {
            writeList(value, JavaType.OBJECT, null, path);
        } else if (value.isObject()) {
            out.startMap(null);
            for (Map.Entry<String, JsonNode> entry : value.properties()) {
                out.writeString(entry.getKey());
                writeByShape(entry.getValue(), path + "." + entry.getKey());
            }
            out.endMap();
        } else {
            throw JsonMappingException.at(path, "a " + kindOf(value) + " has no hessian2 form");
        }
    }

    /** A {@code BigDecimal} as hessian writes it: an object of one field, its text. */
    private void writeBigDecimal(BigDecimal value) {
        out.startObject("java.math.BigDecimal", List.of("value"));
        out.writeString(value.toString());
    }

    /**
     * A {@code BigInteger}: its digits, which Dubbo's generic call turns into one; or the fields
     * sofa-hessian writes for one ({@code signum} and the magnitude as big-endian ints).
     */
    private void writeBigInteger(BigInteger value) {
        if (form == ObjectForm.MAP) {
            out.writeString(value.toString());
            return;
        }
        out.startObject("java.math.BigInteger", List.of("signum", "mag"));
        out.writeInt(value.signum());
        byte[] bytes = value.abs().toByteArray();
        int skip = bytes.length > 0 && bytes[0] == 0 ? 1 : 0;
        int length = bytes.length - skip;
        int ints = (length + 3) / 4;
        out.startList("[int", value.signum() == 0 ? 0 : ints);
        for (int i = 0; i < ints && value.signum() != 0; i++) {
            int word = 0;
            for (int b = 0; b < 4; b++) {
                int at = length - (ints - i) * 4 + b;
                word = word << 8 | (at >= 0 ? bytes[skip + at] & 0xff : 0);
            }
            out.writeInt(word);
        }
        out.endList();
    }

    private void writeBinary(JsonNode value, String path) {
        if (!value.isTextual()) {
            throw JsonMappingException.at(path, "a " + kindOf(value) + " where base64 text (byte[]) was expected");
        }
        try {
            out.writeBinary(Base64.getDecoder().decode(value.textValue()));
        } catch (IllegalArgumentException e) {
            throw JsonMappingException.at(path, "no base64: " + e.getMessage());
        }
    }

    private static long epochMillis(JsonNode value, String path) {
        if (value.isIntegralNumber() && value.canConvertToLong()) {
            return value.longValue();
        }
        if (!value.isTextual()) {
            throw JsonMappingException.at(path, "a " + kindOf(value) + " where an ISO-8601 date or epoch milliseconds were expected");
        }
        String text = value.textValue();
        try {
            if (text.length() == 10) {
                return LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
            }
            if (text.endsWith("Z")) {
                return Instant.parse(text).toEpochMilli();
            }
            return OffsetDateTime.parse(text).toInstant().toEpochMilli();
        } catch (DateTimeParseException | ArithmeticException e) {
            throw JsonMappingException.at(path, "\"" + text + "\" is no ISO-8601 date (e.g. 2024-05-01T12:00:00Z)");
        }
    }

    private static int intIn(JsonNode value, JavaType type, String path, int min, int max) {
        BigInteger number = integer(value, type, path);
        if (number.compareTo(BigInteger.valueOf(min)) < 0 || number.compareTo(BigInteger.valueOf(max)) > 0) {
            throw JsonMappingException.at(path, number + " is out of range for a " + type);
        }
        return number.intValue();
    }

    /** An integral number, or a string of one (clients that keep longs as strings), as a {@code BigInteger}. */
    private static BigInteger integer(JsonNode value, JavaType type, String path) {
        BigDecimal number = decimal(value, type, path);
        if (number.precision() - number.scale() > MAX_INTEGER_DIGITS) {
            throw JsonMappingException.at(path, "more than " + MAX_INTEGER_DIGITS + " digits for a " + type);
        }
        try {
            BigInteger integer = number.toBigIntegerExact();
            if (TypeKind.of(type) == TypeKind.LONG && integer.bitLength() > 63) {
                throw JsonMappingException.at(path, integer + " is out of range for a " + type);
            }
            return integer;
        } catch (ArithmeticException e) {
            throw JsonMappingException.at(path, number + " is not a whole number (expected: a " + type + ")");
        }
    }

    /** A number, or a string of one, exactly. */
    private static BigDecimal decimal(JsonNode value, JavaType type, String path) {
        if (value.isNumber()) {
            return value.decimalValue();
        }
        if (value.isTextual()) {
            try {
                return new BigDecimal(value.textValue());
            } catch (NumberFormatException e) {
                throw JsonMappingException.at(path, "\"" + value.textValue() + "\" is no number (expected: a " + type + ")");
            }
        }
        throw mismatch(path, value, type);
    }

    private static JsonMappingException mismatch(String path, JsonNode value, JavaType type) {
        return JsonMappingException.at(path, "a " + kindOf(value) + " cannot be a " + type);
    }

    static String kindOf(JsonNode value) {
        return switch (value.getNodeType()) {
            case ARRAY -> "JSON array";
            case OBJECT -> "JSON object";
            case STRING -> "string";
            case NUMBER -> "number";
            case BOOLEAN -> "boolean";
            default -> "null";
        };
    }
}
