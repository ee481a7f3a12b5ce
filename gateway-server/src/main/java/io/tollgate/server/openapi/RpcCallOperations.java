package io.tollgate.server.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tollgate.core.config.ForwardActionConfig;
import io.tollgate.core.config.RpcCallConfig;
import io.tollgate.core.config.WeightedClusterConfig;
import io.tollgate.discovery.MethodSignature;
import io.tollgate.protocols.json.JavaType;
import io.tollgate.router.route.Route;
import io.tollgate.server.rpccall.RegisteredService;
import io.tollgate.server.rpccall.ServiceMethods;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The operations of an {@code rpc_call} route: {@code POST {prefix}/{interface}/{method}} for every
 * method of every service the registry published for the route's clusters (Dubbo's service
 * definitions: parameter and return types, and the classes' fields from {@code types[]}), then
 * every method of the route's {@code methods:} not published (its return type unknown: any JSON).
 * Overloads share their path: the body is any of their argument arrays.
 */
public final class RpcCallOperations implements ApiOperations {

    private final ServiceMethods registry;

    /** @param registry the services registries publish, by cluster */
    public RpcCallOperations(ServiceMethods registry) {
        this.registry = registry;
    }

    /** A service as the document lists it: its signatures, definition and where it is registered. */
    private static final class Service {
        private final Map<String, List<MethodSignature>> methods = new LinkedHashMap<>();
        private final Set<String> registrations = new LinkedHashSet<>();
        private JsonNode definition;

        void add(MethodSignature method) {
            List<MethodSignature> overloads = methods.computeIfAbsent(method.name(), name -> new ArrayList<>());
            if (overloads.stream().noneMatch(m -> m.parameterTypes().equals(method.parameterTypes()))) {
                overloads.add(method);
            }
        }
    }

    @Override
    public void describe(Route route, OpenApiDocument document) {
        RpcCallConfig config = route.rpcCall();
        if (config == null) {
            return;
        }
        Map<String, Service> services = new LinkedHashMap<>();
        for (String cluster : clusters(route)) {
            for (RegisteredService registered : registry.services(cluster)) {
                Service service = services.computeIfAbsent(registered.interfaceName(), name -> new Service());
                registered.methods().forEach(service::add);
                if (service.definition == null) {
                    service.definition = registered.definition();
                }
                service.registrations.add(registration(config.protocol(), registered));
            }
        }
        config.methods().forEach((name, methods) -> {
            Service service = services.computeIfAbsent(name, n -> new Service());
            methods.forEach(m -> service.add(new MethodSignature(m.name(), m.parameterTypes(), null)));
        });
        services.forEach((name, service) -> describe(document, config, name, service));
    }

    private static List<String> clusters(Route route) {
        ForwardActionConfig forward = route.config().forward().orElse(null);
        if (forward == null) {
            return List.of();
        }
        List<String> clusters = new ArrayList<>();
        forward.cluster().ifPresent(clusters::add);
        forward.weightedClusters().stream().map(WeightedClusterConfig::name).forEach(clusters::add);
        return clusters;
    }

    private static String registration(RpcCallConfig.Protocol protocol, RegisteredService service) {
        List<String> parts = new ArrayList<>();
        if (!service.group().isEmpty()) {
            parts.add("x-rpc-group: " + service.group());
        }
        if (!service.version().isEmpty()) {
            parts.add("x-rpc-version: " + service.version());
        }
        return parts.isEmpty() ? "no group or version" : String.join(", ", parts);
    }

    private void describe(OpenApiDocument document, RpcCallConfig config, String name, Service service) {
        JavaTypeSchemas schemas = new JavaTypeSchemas(document, service.definition);
        service.methods.forEach((method, overloads) -> {
            String path = config.prefix() + "/" + name + "/" + method;
            if (document.hasPath(path)) {
                return;
            }
            List<ObjectNode> bodies = new ArrayList<>();
            List<ObjectNode> returns = new ArrayList<>();
            List<String> signatures = new ArrayList<>();
            for (MethodSignature overload : overloads) {
                List<JavaType> parameters;
                try {
                    parameters = overload.parameterTypes().stream().map(JavaType::parse).toList();
                } catch (RuntimeException unreadable) {
                    continue;
                }
                bodies.add(arguments(schemas, parameters));
                returns.add(overload.returnType() == null ? OpenApiDocument.object()
                        .put("description", "any JSON: the return type is not published")
                        : schemas.returned(parse(overload.returnType())));
                signatures.add((overload.returnType() == null ? "" : overload.returnType() + " ") + method
                        + parameters.stream().map(JavaType::toString).collect(Collectors.joining(", ", "(", ")")));
            }
            if (bodies.isEmpty()) {
                return;
            }
            ObjectNode operation = document.post(path, name + "." + method, name + "." + method,
                    either(bodies), either(returns.stream().distinct().toList()));
            String where = service.registrations.isEmpty() ? "" : "\n\nRegistered as: "
                    + String.join("; ", service.registrations) + ".";
            operation.put("description", "Calls " + String.join(" or ", signatures) + " with the JSON array of its "
                    + "arguments" + (bodies.size() > 1 ? "; overloads are chosen by arity, then by the JSON's shapes" : "")
                    + "." + where);
            operation.putArray("tags").add(name);
            ArrayNode parameters = operation.putArray("parameters");
            if (config.protocol() == RpcCallConfig.Protocol.DUBBO) {
                parameters.add(document.header("x-rpc-group", "The service's group (or the query parameter x-rpc-group)"));
            }
            parameters.add(document.header("x-rpc-version", "The service's version (or the query parameter x-rpc-version)"));
            if (config.protocol() == RpcCallConfig.Protocol.SOFA) {
                parameters.add(document.header("x-rpc-unique-id",
                        "SOFARPC's uniqueId (or the query parameter x-rpc-unique-id)"));
            }
            parameters.add(document.header("x-rpc-types",
                    "Comma-separated Java type names of the parameters, choosing among overloads"));
        });
    }

    private static JavaType parse(String name) {
        try {
            return JavaType.parse(name);
        } catch (RuntimeException unreadable) {
            return JavaType.OBJECT;
        }
    }

    /** The body of a method with {@code parameters}: a JSON array of exactly its arguments, in order. */
    private static ObjectNode arguments(JavaTypeSchemas schemas, List<JavaType> parameters) {
        ObjectNode array = OpenApiDocument.object().put("type", "array").put("minItems", parameters.size())
                .put("maxItems", parameters.size());
        if (!parameters.isEmpty()) {
            ArrayNode items = array.putArray("prefixItems");
            parameters.forEach(p -> items.add(schemas.of(p)));
        }
        return array;
    }

    /** One schema, or any of several (overloads). */
    private static ObjectNode either(List<ObjectNode> schemas) {
        if (schemas.size() == 1) {
            return schemas.get(0);
        }
        ObjectNode any = OpenApiDocument.object();
        ArrayNode of = any.putArray("anyOf");
        schemas.forEach(of::add);
        return any;
    }
}
