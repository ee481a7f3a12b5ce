package io.tollgate.protocols.generic;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.tollgate.protocols.json.ExactJson;
import io.tollgate.protocols.json.JavaType;
import io.tollgate.protocols.json.JsonMappingException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * An HTTP request read as a generic call: {@code POST {prefix}/{service}/{method}} with a JSON array
 * of the arguments as its body; the group, version and uniqueId from the {@code x-rpc-group},
 * {@code x-rpc-version} and {@code x-rpc-unique-id} headers or query parameters of the same names
 * (the header wins), and parameter types, when the client names them, from {@code x-rpc-types}
 * (comma-separated Java type names; commas inside {@code <...>} belong to the type).
 *
 * @param service the interface named by the path
 * @param method the method named by the path
 * @param group the group, or null
 * @param version the version, or null
 * @param uniqueId the uniqueId, or null
 * @param headerTypes the types {@code x-rpc-types} names, or null when absent
 * @param arguments the arguments, a JSON array
 */
public record HttpCallRequest(String service, String method, String group, String version, String uniqueId,
        List<JavaType> headerTypes, JsonNode arguments) {

    public static final String GROUP = "x-rpc-group";
    public static final String VERSION = "x-rpc-version";
    public static final String UNIQUE_ID = "x-rpc-unique-id";
    public static final String TYPES = "x-rpc-types";

    /**
     * Reads a request.
     *
     * @param prefix the route's path prefix, e.g. {@code /dubbo} (no trailing slash)
     * @param httpMethod the request's method
     * @param uri the request target: path and query
     * @param header a request header by lower-case name, or null when absent
     * @param body the body, UTF-8 JSON
     * @throws CallErrorException with a 400, 404 or 405
     */
    public static HttpCallRequest parse(String prefix, String httpMethod, String uri, Function<String, String> header,
            byte[] body) {
        if (!"POST".equals(httpMethod)) {
            throw new CallErrorException(new CallError(405, "method_not_allowed", "calls are POST requests"));
        }
        QueryStringDecoder target = new QueryStringDecoder(uri);
        String path = target.rawPath();
        if (!path.startsWith(prefix + "/")) {
            throw new CallErrorException(CallError.notFound("the path is not under " + prefix + "/"));
        }
        String rest = path.substring(prefix.length() + 1);
        int slash = rest.lastIndexOf('/');
        if (slash <= 0 || slash == rest.length() - 1 || rest.indexOf('/') != slash) {
            throw new CallErrorException(CallError.notFound("the path must be " + prefix + "/{service}/{method}"));
        }
        String service = QueryStringDecoder.decodeComponent(rest.substring(0, slash));
        String method = QueryStringDecoder.decodeComponent(rest.substring(slash + 1));
        Map<String, List<String>> query = target.parameters();
        Function<String, String> parameter = name -> {
            String value = header.apply(name);
            if (value == null && query.containsKey(name)) {
                value = query.get(name).get(0);
            }
            return value == null || value.isBlank() ? null : value.strip();
        };
        List<JavaType> types;
        try {
            String typesText = parameter.apply(TYPES);
            types = typesText == null ? null : types(typesText);
        } catch (JsonMappingException e) {
            throw new CallErrorException(CallError.badRequest(TYPES + ": " + e.getMessage()));
        }
        JsonNode arguments;
        try {
            arguments = ExactJson.parse(body);
        } catch (JsonMappingException e) {
            throw new CallErrorException(CallError.badRequest(e.getMessage()));
        }
        if (!arguments.isArray()) {
            throw new CallErrorException(CallError.badRequest("the body must be a JSON array of the arguments"));
        }
        return new HttpCallRequest(service, method, parameter.apply(GROUP), parameter.apply(VERSION),
                parameter.apply(UNIQUE_ID), types, arguments);
    }

    /** The types of {@code x-rpc-types}: split at the commas outside angle brackets. */
    static List<JavaType> types(String text) {
        List<JavaType> types = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            char c = i == text.length() ? ',' : text.charAt(i);
            if (c == '<') {
                depth++;
            } else if (c == '>') {
                depth--;
            } else if (c == ',' && depth == 0) {
                String name = text.substring(start, i).strip();
                if (!name.isEmpty()) {
                    types.add(JavaType.parse(name));
                }
                start = i + 1;
            }
        }
        return types;
    }
}
