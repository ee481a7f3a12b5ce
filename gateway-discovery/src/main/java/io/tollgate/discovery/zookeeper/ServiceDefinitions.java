package io.tollgate.discovery.zookeeper;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.discovery.MethodSignature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a Dubbo service definition (the JSON Dubbo writes under {@code /dubbo/metadata/...}) and
 * its methods ({@code methods[]} with {@code name}, {@code parameterTypes} and {@code returnType}).
 */
final class ServiceDefinitions {

    private static final Logger log = LoggerFactory.getLogger(ServiceDefinitions.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private ServiceDefinitions() {
    }

    /** The definition {@code data} read at {@code path}, or null when it is empty or no JSON. */
    static JsonNode read(byte[] data, String path) {
        if (data == null || data.length == 0) {
            return null;
        }
        try {
            return JSON.readTree(data);
        } catch (IOException e) {
            log.warn("service definition {} is no JSON: {}", path, e.getMessage());
            return null;
        }
    }

    /** The methods of {@code definition}; empty when it holds none or is null. */
    static List<MethodSignature> methods(JsonNode definition) {
        if (definition == null) {
            return List.of();
        }
        List<MethodSignature> methods = new ArrayList<>();
        for (JsonNode method : definition.path("methods")) {
            List<String> parameters = new ArrayList<>();
            method.path("parameterTypes").forEach(type -> parameters.add(type.asText()));
            methods.add(new MethodSignature(method.path("name").asText(), parameters,
                    method.path("returnType").asText()));
        }
        return List.copyOf(methods);
    }
}
