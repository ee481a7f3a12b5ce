package io.tollgate.server.openapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.Supplier;

/**
 * An OpenAPI 3.1 document being built: the operations ({@code POST} of a JSON body) that sources
 * add, the component schemas they share, and the error contract every operation answers with
 * ({@code {"error": {"type", "message"}}} under 400, 404, 413, 500, 502, 503 and 504).
 */
public final class OpenApiDocument {

    /** The OpenAPI version written. */
    public static final String VERSION = "3.1.0";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String APPLICATION_JSON = "application/json";
    /** The error contract's statuses, with the response component each refers to and its description. */
    private static final String[][] ERRORS = {
        {"400", "BadRequest", "Malformed JSON, wrong arity, a value that cannot become its parameter's type, "
            + "an ambiguous overload or unknown parameter types"},
        {"404", "NotFound", "No such service or method, or not in that group, version or uniqueId"},
        {"413", "PayloadTooLarge", "The body is longer than the listener's limit"},
        {"500", "ProviderException", "The provider's method threw: the type is the exception's class"},
        {"502", "BadGateway", "The provider failed outside the method"},
        {"503", "Unavailable", "No healthy provider, the provider is busy, or the gateway is overloaded"},
        {"504", "Timeout", "The call timed out"}};

    private final ObjectNode root = JSON.objectNode();
    private final ObjectNode paths;
    private final ObjectNode schemas;
    private final ObjectNode parameters;

    /** An empty document titled {@code title}. */
    public OpenApiDocument(String title) {
        root.put("openapi", VERSION);
        root.putObject("info").put("title", title).put("version", "1")
                .put("description", "Calls of RPC services with JSON bodies through the gateway (generated from the "
                        + "services' published definitions and the route's configuration)");
        paths = root.putObject("paths");
        ObjectNode components = root.putObject("components");
        schemas = components.putObject("schemas");
        parameters = components.putObject("parameters");
        ObjectNode responses = components.putObject("responses");
        schemas.set("Error", errorSchema());
        for (String[] error : ERRORS) {
            ObjectNode response = responses.putObject(error[1]).put("description", error[2]);
            response.putObject("content").putObject(APPLICATION_JSON).set("schema", reference("Error"));
        }
    }

    private static ObjectNode errorSchema() {
        ObjectNode error = JSON.objectNode().put("type", "object");
        error.putArray("required").add("type").add("message");
        ObjectNode properties = error.putObject("properties");
        properties.putObject("type").put("type", "string")
                .put("description", "bad_request, not_found, unavailable, timeout, ... or the provider's exception class");
        properties.putObject("message").put("type", "string");
        ObjectNode schema = JSON.objectNode().put("type", "object")
                .put("description", "Every error's body; no message contains a network address");
        schema.putArray("required").add("error");
        schema.putObject("properties").set("error", error);
        return schema;
    }

    /** A {@code $ref} to the component schema {@code name}. */
    public static ObjectNode reference(String name) {
        return JSON.objectNode().put("$ref", "#/components/schemas/" + name);
    }

    /**
     * A {@code $ref} to the component schema named after {@code typeName}, which {@code schema}
     * makes when the document has none by that name yet; it may refer to itself through this method
     * (a cycle of classes), as the name is taken before it runs.
     */
    public ObjectNode component(String typeName, Supplier<ObjectNode> schema) {
        String name = componentName(typeName);
        if (!schemas.has(name)) {
            schemas.putObject(name);
            schemas.set(name, schema.get());
        }
        return reference(name);
    }

    /** {@code typeName} with what a component's name may not hold ({@code ^[a-zA-Z0-9.\-_]+$}) as {@code _}. */
    static String componentName(String typeName) {
        StringBuilder name = new StringBuilder(typeName.length());
        for (int i = 0; i < typeName.length(); i++) {
            char c = typeName.charAt(i);
            boolean allowed = c < 128 && (Character.isLetterOrDigit(c) || c == '.' || c == '-' || c == '_');
            name.append(allowed ? c : '_');
        }
        return name.toString();
    }

    /** Declares the header parameter {@code name} once, and returns a reference to it. */
    public ObjectNode header(String name, String description) {
        String key = componentName(name);
        if (!parameters.has(key)) {
            ObjectNode parameter = parameters.putObject(key).put("name", name).put("in", "header")
                    .put("required", false).put("description", description);
            parameter.putObject("schema").put("type", "string");
        }
        return JSON.objectNode().put("$ref", "#/components/parameters/" + key);
    }

    /**
     * Adds {@code POST path}: its body {@code request}, its successful answer {@code response}
     * (200), and the error contract.
     *
     * @return the operation, for parameters and descriptions to be added
     */
    public ObjectNode post(String path, String operationId, String summary, ObjectNode request, ObjectNode response) {
        ObjectNode operation = paths.putObject(path).putObject("post").put("operationId", operationId)
                .put("summary", summary);
        ObjectNode body = operation.putObject("requestBody").put("required", true);
        body.putObject("content").putObject(APPLICATION_JSON).set("schema", request);
        ObjectNode responses = operation.putObject("responses");
        ObjectNode ok = responses.putObject("200").put("description", "The method's return value");
        ok.putObject("content").putObject(APPLICATION_JSON).set("schema", response);
        for (String[] error : ERRORS) {
            responses.putObject(error[0]).put("$ref", "#/components/responses/" + error[1]);
        }
        return operation;
    }

    /** Whether an operation is at {@code path} already. */
    public boolean hasPath(String path) {
        return paths.has(path);
    }

    /** A new JSON object, to build schemas with. */
    public static ObjectNode object() {
        return JSON.objectNode();
    }

    /** A new JSON array. */
    public static ArrayNode array() {
        return JSON.arrayNode();
    }

    /** The document as JSON text. */
    public String toJson() {
        return root.toString();
    }
}
