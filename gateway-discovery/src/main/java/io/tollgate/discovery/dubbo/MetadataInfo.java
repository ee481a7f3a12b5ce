package io.tollgate.discovery.dubbo;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a Dubbo 3 application serves in one revision (Dubbo's {@code MetadataInfo}): its services,
 * each with the protocol it is exported on and its URL parameters (the port is each instance's
 * own, in its {@code dubbo.endpoints}). Read either from the
 * metadata report (JSON) or from a provider's {@code MetadataService} (hessian2, read as maps);
 * both have the same fields.
 *
 * @param application the application's name ({@code app})
 * @param revision the revision
 * @param services the services exported
 */
public record MetadataInfo(String application, String revision, List<ServiceInfo> services) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public MetadataInfo {
        services = List.copyOf(services);
    }

    /**
     * One exported service of a {@link MetadataInfo}.
     *
     * @param name the interface
     * @param group its group, empty when none
     * @param version its version, empty when none
     * @param protocol the protocol it is exported on, e.g. {@code dubbo}, {@code tri}
     * @param path its path (the interface, unless exported under another)
     * @param parameters its URL parameters as the provider published them
     */
    public record ServiceInfo(String name, String group, String version, String protocol, String path,
            Map<String, String> parameters) {

        public ServiceInfo {
            parameters = Map.copyOf(parameters);
        }
    }

    /**
     * Reads the JSON Dubbo writes into its metadata report at
     * {@code /dubbo/metadata/{application}/{revision}}.
     *
     * @throws IllegalArgumentException when it is no MetadataInfo JSON
     */
    public static MetadataInfo fromJson(byte[] data) {
        try {
            return fromMap(JSON.readValue(data == null ? new byte[0] : data, Map.class));
        } catch (IOException e) {
            throw new IllegalArgumentException("no MetadataInfo JSON: " + e.getMessage(), e);
        }
    }

    /**
     * Reads a MetadataInfo given as nested maps (fields by name, as hessian2 maps an object of a
     * class it does not load, or JSON).
     *
     * @throws IllegalArgumentException when {@code value} is no MetadataInfo
     */
    public static MetadataInfo fromMap(Object value) {
        if (!(value instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("MetadataInfo expected, got " + describe(value));
        }
        List<ServiceInfo> services = new ArrayList<>();
        if (map.get("services") instanceof Map<?, ?> byKey) {
            for (Object service : byKey.values()) {
                if (service instanceof Map<?, ?> s) {
                    services.add(new ServiceInfo(text(s.get("name")), text(s.get("group")), text(s.get("version")),
                            text(s.get("protocol")), text(s.get("path")),
                            strings(s.get("params"))));
                }
            }
        } else if (map.get("services") != null) {
            throw new IllegalArgumentException("MetadataInfo services: " + describe(map.get("services")));
        }
        return new MetadataInfo(text(map.get("app")), text(map.get("revision")), services);
    }

    private static String describe(Object value) {
        return value == null ? "null" : value.getClass().getName();
    }

    private static String text(Object value) {
        return value == null ? "" : value.toString();
    }

    private static Map<String, String> strings(Object value) {
        Map<String, String> strings = new LinkedHashMap<>();
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                if (k != null && v != null) {
                    strings.put(k.toString(), v.toString());
                }
            });
        }
        return strings;
    }
}
