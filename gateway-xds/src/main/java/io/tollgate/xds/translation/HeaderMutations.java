package io.tollgate.xds.translation;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Envoy's {@code request_headers_to_add} / {@code _to_remove} and {@code response_headers_to_add}
 * / {@code _to_remove} of a route, a virtual host or a route configuration, as the file's
 * {@code request_headers} and {@code response_headers} of a route; the mutations of the
 * enclosing levels follow the route's own, so that they are applied after it, as in Envoy.
 */
record HeaderMutations(List<ObjectNode> requestAdd, List<String> requestRemove, List<ObjectNode> responseAdd,
        List<String> responseRemove) {

    /** The mutations of one level; {@code at} names it. */
    static HeaderMutations of(List<HeaderValueOption> requestAdd, List<String> requestRemove,
            List<HeaderValueOption> responseAdd, List<String> responseRemove, String at) {
        return new HeaderMutations(adds(requestAdd, at + ".request_headers_to_add"), List.copyOf(requestRemove),
                adds(responseAdd, at + ".response_headers_to_add"), List.copyOf(responseRemove));
    }

    /** These mutations, then {@code after}'s. */
    HeaderMutations then(HeaderMutations after) {
        return new HeaderMutations(concat(requestAdd, after.requestAdd), concat(requestRemove, after.requestRemove),
                concat(responseAdd, after.responseAdd), concat(responseRemove, after.responseRemove));
    }

    /** Sets {@code request_headers} and {@code response_headers} of a route's tree, when there are any. */
    void writeTo(ObjectNode route) {
        write(route, "request_headers", requestAdd, requestRemove);
        write(route, "response_headers", responseAdd, responseRemove);
    }

    private static void write(ObjectNode route, String field, List<ObjectNode> add, List<String> remove) {
        if (add.isEmpty() && remove.isEmpty()) {
            return;
        }
        ObjectNode mutation = route.putObject(field);
        ArrayNode adds = mutation.putArray("add");
        add.forEach(adds::add);
        remove.forEach(mutation.putArray("remove")::add);
    }

    private static List<ObjectNode> adds(List<HeaderValueOption> options, String at) {
        List<ObjectNode> adds = new ArrayList<>();
        for (int i = 0; i < options.size(); i++) {
            HeaderValueOption option = options.get(i);
            String where = at + "[" + i + "]";
            Fields.allowOnly(option, where, Set.of("header", "append", "append_action"));
            HeaderValue header = option.getHeader();
            Fields.allowOnly(header, where + ".header", Set.of("key", "value"));
            if (header.getValue().indexOf('%') >= 0) {
                throw new XdsRejection(where + ".header.value: '" + header.getValue()
                        + "' not supported (supported: literal values; %...% formatters are not)");
            }
            boolean append = switch (option.getAppendAction()) {
                case APPEND_IF_EXISTS_OR_ADD -> !option.hasAppend() || option.getAppend().getValue();
                case OVERWRITE_IF_EXISTS_OR_ADD -> false;
                default -> throw new XdsRejection(where + ".append_action: " + option.getAppendAction()
                        + " not supported (supported: APPEND_IF_EXISTS_OR_ADD, OVERWRITE_IF_EXISTS_OR_ADD)");
            };
            adds.add(JsonNodeFactory.instance.objectNode()
                    .put("name", header.getKey()).put("value", header.getValue()).put("append", append));
        }
        return List.copyOf(adds);
    }

    private static <T> List<T> concat(List<T> first, List<T> second) {
        List<T> all = new ArrayList<>(first);
        all.addAll(second);
        return List.copyOf(all);
    }
}
