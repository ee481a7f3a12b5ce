package io.tollgate.xds.translation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns the gateway's own Bolt network filter, {@code tollgate.bolt.v1.BoltProxy}, carried in a
 * {@code TypedStruct} (Envoy has no Bolt filter), into the routes of a Bolt listener. Its value
 * reads like Envoy's {@code dubbo_proxy}: route configurations per service
 * ({@code interface:version}, or {@code *}), routes matching the method and the request headers,
 * and route actions written as the configuration file writes them, checked by the same rules.
 */
final class BoltProxyTranslator {

    /** The type URL of the typed configuration inside the {@code TypedStruct}. */
    static final String TYPE_URL = "type.googleapis.com/tollgate.bolt.v1.BoltProxy";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private BoltProxyTranslator() {
    }

    /** Whether {@code config} is a {@code TypedStruct} (xds.type.v3 or udpa.type.v1). */
    static boolean isTypedStruct(Any config) {
        return config.is(com.github.xds.type.v3.TypedStruct.class)
                || config.is(com.github.udpa.udpa.type.v1.TypedStruct.class);
    }

    /**
     * The listener fields ({@code bolt} options and {@code route_config}) a {@code TypedStruct}
     * holding a {@code BoltProxy} sets on {@code listener}.
     */
    static void listener(Any config, String at, ObjectNode listener) {
        String typeUrl;
        Struct value;
        try {
            if (config.is(com.github.xds.type.v3.TypedStruct.class)) {
                com.github.xds.type.v3.TypedStruct typed = config.unpack(com.github.xds.type.v3.TypedStruct.class);
                typeUrl = typed.getTypeUrl();
                value = typed.getValue();
            } else {
                com.github.udpa.udpa.type.v1.TypedStruct typed = config.unpack(
                        com.github.udpa.udpa.type.v1.TypedStruct.class);
                typeUrl = typed.getTypeUrl();
                value = typed.getValue();
            }
        } catch (InvalidProtocolBufferException e) {
            throw new XdsRejection(at + ": cannot be decoded: " + e.getMessage());
        }
        if (!typeUrl.equals(TYPE_URL)) {
            throw new XdsRejection(at + ".type_url: '" + typeUrl + "' not supported (supported: " + TYPE_URL + ")");
        }
        ObjectNode proxy = (ObjectNode) tree(Value.newBuilder().setStructValue(value).build());
        at += ".value";
        allowOnly(proxy, at, Set.of("stat_prefix", "bolt", "route_config"));
        listener.putArray("protocols").add("bolt");
        if (proxy.has("bolt")) {
            listener.set("bolt", proxy.get("bolt"));
        }
        listener.set("route_config", routeConfig(proxy.path("route_config"), at + ".route_config"));
    }

    private static ObjectNode routeConfig(JsonNode configs, String at) {
        if (!configs.isArray()) {
            throw new XdsRejection(at + ": needs a list of route configurations");
        }
        // Route configurations of one service share its virtual host, in order.
        Map<String, ArrayNode> routesByService = new LinkedHashMap<>();
        for (int i = 0; i < configs.size(); i++) {
            String where = at + "[" + i + "]";
            JsonNode config = configs.get(i);
            allowOnly(config, where, Set.of("name", "service", "routes"));
            String service = config.path("service").asText("");
            if (service.isEmpty() || (service.contains("*") && !service.equals("*"))) {
                throw new XdsRejection(where + ".service: '" + service
                        + "' not supported (supported: a service name interface:version, or *)");
            }
            ArrayNode routes = routesByService.computeIfAbsent(service, s -> NODES.arrayNode());
            JsonNode list = config.path("routes");
            for (int r = 0; r < list.size(); r++) {
                routes.add(route(service, list.get(r), where + ".routes[" + r + "]"));
            }
        }
        return DubboProxyTranslator.byService(routesByService);
    }

    private static ObjectNode route(String service, JsonNode route, String at) {
        allowOnly(route, at, Set.of("name", "match", "route"));
        ObjectNode tree = NODES.objectNode();
        if (route.has("name")) {
            tree.set("name", route.get("name"));
        }
        JsonNode match = route.path("match");
        allowOnly(match, at + ".match", Set.of("method", "headers"));
        ObjectNode m = tree.putObject("match");
        if (match.has("method")) {
            String servicePattern = service.equals("*") ? "[^/]+" : Pattern.quote(service);
            m.put("regex", "/" + servicePattern + "/" + methodPattern(match.get("method"), at + ".match.method"));
        } else {
            m.put("prefix", "/");
        }
        if (match.has("headers")) {
            m.set("headers", match.get("headers"));
        }
        if (!route.has("route")) {
            throw new XdsRejection(at + ".route: needed");
        }
        tree.set("route", route.get("route"));
        return tree;
    }

    /** A method matcher ({@code exact}, {@code prefix} or {@code regex}) as a regex over the method part of the path. */
    private static String methodPattern(JsonNode method, String at) {
        allowOnly(method, at, Set.of("exact", "prefix", "regex"));
        if (method.size() != 1) {
            throw new XdsRejection(at + ": needs exactly one of exact, prefix, regex");
        }
        if (method.has("exact")) {
            return Pattern.quote(method.get("exact").asText());
        }
        if (method.has("prefix")) {
            return Pattern.quote(method.get("prefix").asText()) + "[^/]*";
        }
        return method.get("regex").asText();
    }

    private static void allowOnly(JsonNode node, String at, Set<String> supported) {
        if (!node.isObject()) {
            throw new XdsRejection(at + ": needs a mapping with fields " + supported);
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!supported.contains(name)) {
                throw new XdsRejection(at + "." + name + ": not supported (supported: " + supported + ")");
            }
        }
    }

    /** A protobuf {@code Value} as the configuration file's tree; whole numbers stay whole. */
    private static JsonNode tree(Value value) {
        return switch (value.getKindCase()) {
            case STRUCT_VALUE -> {
                ObjectNode object = NODES.objectNode();
                value.getStructValue().getFieldsMap().forEach((k, v) -> object.set(k, tree(v)));
                yield object;
            }
            case LIST_VALUE -> {
                ArrayNode array = NODES.arrayNode();
                ListValue list = value.getListValue();
                list.getValuesList().forEach(v -> array.add(tree(v)));
                yield array;
            }
            case STRING_VALUE -> NODES.textNode(value.getStringValue());
            case BOOL_VALUE -> NODES.booleanNode(value.getBoolValue());
            case NUMBER_VALUE -> {
                double number = value.getNumberValue();
                yield number == Math.rint(number) && Math.abs(number) < 1e15 ? NODES.numberNode((long) number)
                        : NODES.numberNode(number);
            }
            default -> NODES.nullNode();
        };
    }
}
