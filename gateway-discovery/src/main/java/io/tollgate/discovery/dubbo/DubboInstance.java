package io.tollgate.discovery.dubbo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One instance of a Dubbo 3 application as it registers at application level: where it listens
 * and its metadata (which says which revision of the application's MetadataInfo it serves, where
 * that MetadataInfo is kept, and the port of each protocol). Which interfaces it serves is not
 * here: that is the MetadataInfo of its revision.
 *
 * @param application the application's name
 * @param address the instance's address
 * @param port the instance's port (its first protocol's)
 * @param metadata the instance's metadata, {@code dubbo.*} keys included
 * @param registeredMillis when it registered (ms since the epoch), 0 when unknown
 */
public record DubboInstance(String application, String address, int port, Map<String, String> metadata,
        long registeredMillis) {

    /** The revision of the application's MetadataInfo the instance serves. */
    public static final String REVISION = "dubbo.metadata.revision";
    /** {@code local} (served by the instance's MetadataService, Dubbo's default) or {@code remote} (metadata report). */
    public static final String STORAGE_TYPE = "dubbo.metadata.storage-type";
    /** JSON list of {@code {port, protocol}}: the instance's port for each protocol. */
    static final String ENDPOINTS = "dubbo.endpoints";
    /** JSON object: how the instance's MetadataService is exported (protocol, port, version). */
    static final String METADATA_SERVICE_PARAMS = "dubbo.metadata-service.url-params";
    private static final ObjectMapper JSON = new ObjectMapper();

    public DubboInstance {
        metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }

    /**
     * Reads the Curator {@code ServiceInstance} JSON Dubbo writes at {@code /services/{application}/{ip}:{port}}:
     * {@code name}, {@code address}, {@code port}, {@code payload.metadata} and {@code registrationTimeUTC}.
     *
     * @throws IllegalArgumentException naming what is missing when it is no such instance
     */
    public static DubboInstance parse(byte[] data) {
        JsonNode root;
        try {
            root = JSON.readTree(data == null ? new byte[0] : data);
        } catch (IOException e) {
            throw new IllegalArgumentException("no JSON: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("no service instance JSON object");
        }
        String address = root.path("address").asText("");
        int port = root.path("port").asInt(0);
        if (address.isEmpty() || port < 1 || port > 65535) {
            throw new IllegalArgumentException("no address and port in the service instance");
        }
        Map<String, String> metadata = new LinkedHashMap<>();
        root.path("payload").path("metadata").fields()
                .forEachRemaining(field -> metadata.put(field.getKey(), field.getValue().asText()));
        return new DubboInstance(root.path("name").asText(""), address, port, metadata,
                root.path("registrationTimeUTC").asLong(0));
    }

    /** The MetadataInfo revision the instance serves, or empty. */
    public String revision() {
        return metadata.getOrDefault(REVISION, "");
    }

    /** Whether the instance's MetadataInfo is in the metadata report rather than served by the instance. */
    public boolean metadataRemote() {
        return "remote".equals(metadata.get(STORAGE_TYPE));
    }

    /** The instance's port for {@code protocol} as {@code dubbo.endpoints} gives it, else its own port. */
    public int endpointPort(String protocol) {
        for (JsonNode endpoint : json(ENDPOINTS)) {
            if (protocol.equals(endpoint.path("protocol").asText()) && endpoint.path("port").asInt(0) > 0) {
                return endpoint.path("port").asInt();
            }
        }
        return port;
    }

    /** A parameter of how the instance exports its MetadataService, or {@code defaultValue}. */
    public String metadataServiceParameter(String key, String defaultValue) {
        JsonNode value = json(METADATA_SERVICE_PARAMS).get(key);
        return value == null || value.asText().isEmpty() ? defaultValue : value.asText();
    }

    private JsonNode json(String key) {
        String value = metadata.get(key);
        if (value == null || value.isEmpty()) {
            return JSON.createObjectNode();
        }
        try {
            return JSON.readTree(value);
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }
}
