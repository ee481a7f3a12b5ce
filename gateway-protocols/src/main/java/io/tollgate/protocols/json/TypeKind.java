package io.tollgate.protocols.json;

import java.util.Map;
import java.util.Set;

/**
 * What a declared Java type is to the JSON mapping, decided by its name alone (the gateway has no
 * classes): a number of some width, text, a date, bytes, an array, a collection, a map, or a bean
 * (any other class: an object of fields, or an enum when the JSON gives a name). Public for what
 * describes the mapping (the OpenAPI document's schemas).
 */
public enum TypeKind {
    BOOLEAN, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, CHAR, STRING, BIG_INTEGER, BIG_DECIMAL, DATE, BINARY,
    ARRAY, COLLECTION, MAP, ANY, BEAN;

    private static final Map<String, TypeKind> BY_NAME = Map.ofEntries(
            Map.entry("boolean", BOOLEAN), Map.entry("java.lang.Boolean", BOOLEAN),
            Map.entry("byte", BYTE), Map.entry("java.lang.Byte", BYTE),
            Map.entry("short", SHORT), Map.entry("java.lang.Short", SHORT),
            Map.entry("int", INT), Map.entry("java.lang.Integer", INT),
            Map.entry("long", LONG), Map.entry("java.lang.Long", LONG),
            Map.entry("float", FLOAT), Map.entry("java.lang.Float", FLOAT),
            Map.entry("double", DOUBLE), Map.entry("java.lang.Double", DOUBLE),
            Map.entry("char", CHAR), Map.entry("java.lang.Character", CHAR),
            Map.entry("java.lang.String", STRING), Map.entry("java.lang.CharSequence", STRING),
            Map.entry("java.math.BigInteger", BIG_INTEGER), Map.entry("java.math.BigDecimal", BIG_DECIMAL),
            Map.entry("java.util.Date", DATE), Map.entry("java.sql.Date", DATE), Map.entry("java.sql.Timestamp", DATE),
            Map.entry("java.lang.Object", ANY), Map.entry("java.io.Serializable", ANY),
            Map.entry("java.lang.Number", ANY));

    /** Collection interfaces, and the class hessian makes of each. */
    private static final Map<String, String> COLLECTIONS = Map.of(
            "java.util.List", "java.util.ArrayList", "java.util.Collection", "java.util.ArrayList",
            "java.lang.Iterable", "java.util.ArrayList", "java.util.Set", "java.util.HashSet",
            "java.util.SortedSet", "java.util.TreeSet", "java.util.NavigableSet", "java.util.TreeSet",
            "java.util.Queue", "java.util.ArrayDeque", "java.util.Deque", "java.util.ArrayDeque");

    private static final Set<String> COLLECTION_CLASSES = Set.of("java.util.ArrayList", "java.util.LinkedList",
            "java.util.HashSet", "java.util.LinkedHashSet", "java.util.TreeSet", "java.util.ArrayDeque",
            "java.util.Vector", "java.util.concurrent.CopyOnWriteArrayList");

    /** Map interfaces, and the class to write for each. */
    private static final Map<String, String> MAPS = Map.of(
            "java.util.Map", "java.util.HashMap", "java.util.SortedMap", "java.util.TreeMap",
            "java.util.NavigableMap", "java.util.TreeMap", "java.util.concurrent.ConcurrentMap",
            "java.util.concurrent.ConcurrentHashMap");

    private static final Set<String> MAP_CLASSES = Set.of("java.util.HashMap", "java.util.LinkedHashMap",
            "java.util.TreeMap", "java.util.concurrent.ConcurrentHashMap", "java.util.Hashtable");

    /** What {@code type} is to the mapping. */
    public static TypeKind of(JavaType type) {
        if (type.isArray()) {
            return type.dimensions() == 1 && type.name().equals("byte") ? BINARY : ARRAY;
        }
        TypeKind kind = BY_NAME.get(type.name());
        if (kind != null) {
            return kind;
        }
        if (COLLECTIONS.containsKey(type.name()) || COLLECTION_CLASSES.contains(type.name())) {
            return COLLECTION;
        }
        if (MAPS.containsKey(type.name()) || MAP_CLASSES.contains(type.name())) {
            return MAP;
        }
        return BEAN;
    }

    /** Whether {@code type} is a primitive, which null cannot be. */
    public static boolean isPrimitive(JavaType type) {
        return !type.isArray() && type.name().indexOf('.') < 0 && BY_NAME.containsKey(type.name());
    }

    /** The class hessian should make of collection or map {@code type}: a concrete class. */
    static String concreteClass(JavaType type) {
        String name = type.name();
        return COLLECTIONS.getOrDefault(name, MAPS.getOrDefault(name, name));
    }

    /** The hessian type of an array of {@code component}: {@code [int}, {@code [string}, {@code [object}, {@code [com.example.User}. */
    static String arrayType(JavaType component) {
        String element;
        if (component.isArray()) {
            element = arrayType(component.component());
        } else {
            element = switch (component.name()) {
                case "java.lang.String" -> "string";
                case "java.lang.Object" -> "object";
                default -> component.name();
            };
        }
        return "[" + element;
    }
}
