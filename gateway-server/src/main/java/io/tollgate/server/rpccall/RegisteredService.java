package io.tollgate.server.rpccall;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.tollgate.discovery.MethodSignature;
import java.util.List;

/**
 * A service whose providers make a cluster's hosts, with what its registry published of it, as the
 * OpenAPI document of an {@code rpc_call} route describes it: the methods with their return types
 * and the definition's {@code types[]} (every bean's fields, every enum's constants).
 *
 * @param interfaceName the service's interface
 * @param group Dubbo's group, empty when none
 * @param version the service's version, empty when none
 * @param methods its methods as published; empty when the registry published none (SOFARPC)
 * @param definition the service definition the methods were read from (Dubbo's, with {@code types[]}),
 *     or null when there is none
 */
public record RegisteredService(String interfaceName, String group, String version, List<MethodSignature> methods,
        JsonNode definition) {

    public RegisteredService {
        requireNonNull(interfaceName, "interfaceName");
        requireNonNull(group, "group");
        requireNonNull(version, "version");
        methods = List.copyOf(methods);
    }
}
