package io.tollgate.protocols.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * What the registry says about a service's own classes: each bean's fields and their types, and
 * which classes are enums. Read from the {@code types[]} of a Dubbo service definition (the JSON a
 * provider publishes under {@code /dubbo/metadata/...} and in its MetadataInfo); empty when nothing
 * is known, and then a bean's fields are written by the shape of their JSON.
 *
 * @param fields per class name, its field names and their Java type names
 * @param enums the class names that are enums
 */
public record TypeCatalog(Map<String, Map<String, String>> fields, Set<String> enums) {

    /** Knows nothing. */
    public static final TypeCatalog EMPTY = new TypeCatalog(Map.of(), Set.of());

    public TypeCatalog {
        fields = Map.copyOf(fields);
        enums = Set.copyOf(enums);
    }

    /**
     * The catalog a Dubbo service definition's {@code types[]} describes: entries with {@code type},
     * {@code properties} (field name to type name) and {@code enums} (constants, present for enums).
     */
    public static TypeCatalog fromServiceDefinition(JsonNode definition) {
        Map<String, Map<String, String>> fields = new HashMap<>();
        Set<String> enums = new java.util.HashSet<>();
        for (JsonNode type : definition.path("types")) {
            String name = type.path("type").asText();
            if (name.isEmpty()) {
                continue;
            }
            if (type.path("enums").size() > 0) {
                enums.add(name);
            }
            Map<String, String> properties = new HashMap<>();
            type.path("properties").properties().forEach(e -> properties.put(e.getKey(), e.getValue().asText()));
            if (!properties.isEmpty()) {
                fields.put(name, properties);
            }
        }
        return new TypeCatalog(fields, enums);
    }

    /** The declared type of {@code field} of class {@code type}, or null when unknown. */
    JavaType fieldType(String type, String field) {
        Map<String, String> properties = fields.get(type);
        String name = properties == null ? null : properties.get(field);
        return name == null ? null : JavaType.parse(name);
    }
}
