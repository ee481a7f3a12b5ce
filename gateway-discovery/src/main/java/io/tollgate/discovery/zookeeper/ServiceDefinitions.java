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
 * Reads the methods out of a Dubbo service definition (the JSON Dubbo writes under
 * {@code /dubbo/metadata/...}: {@code methods[]} with {@code name}, {@code parameterTypes} and
 * {@code returnType}).
 */
final class ServiceDefinitions {

    private static final Logger log = LoggerFactory.getLogger(ServiceDefinitions.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private ServiceDefinitions() {
    }

    /** The methods of the definition {@code data} read at {@code path}; empty when it holds none or is no JSON. */
    static List<MethodSignature> methods(byte[] data, String path) {
        if (data == null || data.length == 0) {
            return List.of();
        }
        try {
            JsonNode root = JSON.readTree(data);
            List<MethodSignature> methods = new ArrayList<>();
            for (JsonNode method : root.path("methods")) {
                List<String> parameters = new ArrayList<>();
                method.path("parameterTypes").forEach(type -> parameters.add(type.asText()));
                methods.add(new MethodSignature(method.path("name").asText(), parameters,
                        method.path("returnType").asText()));
            }
            return List.copyOf(methods);
        } catch (IOException e) {
            log.warn("service definition {} is no JSON: {}", path, e.getMessage());
            return List.of();
        }
    }
}
