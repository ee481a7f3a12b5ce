package io.tollgate.server.rpccall;

import com.fasterxml.jackson.databind.JsonNode;
import io.tollgate.protocols.generic.CallErrorException;
import io.tollgate.protocols.generic.GenericCall;
import io.tollgate.protocols.generic.GenericReply;
import io.tollgate.protocols.generic.MethodCandidate;
import io.tollgate.protocols.generic.MethodChooser;
import io.tollgate.protocols.json.ExactJson;
import io.tollgate.protocols.json.JavaType;
import io.tollgate.protocols.json.JsonMappingException;
import io.tollgate.protocols.json.TypeCatalog;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.dubbo.common.utils.JsonUtils;
import org.apache.dubbo.metadata.definition.ServiceDefinitionBuilder;
import org.apache.dubbo.metadata.definition.TypeDefinitionBuilder;
import org.apache.dubbo.rpc.model.FrameworkModel;

/**
 * What both providers' tests share: {@link OrderService}'s definition as Dubbo publishes it (built
 * by Dubbo's own {@code ServiceDefinitionBuilder} and written by Dubbo's JSON), read into method
 * candidates and a type catalog, and the steps of a call before and after the wire.
 */
final class GenericCallFixture {

    /** The service definition Dubbo writes to its metadata report for {@link OrderService}. */
    static final JsonNode DEFINITION = definition();
    static final TypeCatalog CATALOG = TypeCatalog.fromServiceDefinition(DEFINITION);
    static final List<MethodCandidate> METHODS = methods(DEFINITION);

    private GenericCallFixture() {
    }

    /** Built as a provider builds it, with the type builders of a Dubbo framework model of its own. */
    private static JsonNode definition() {
        FrameworkModel model = new FrameworkModel();
        try {
            TypeDefinitionBuilder.initBuilders(model);
            return ExactJson.parse(JsonUtils.toJson(ServiceDefinitionBuilder.buildFullDefinition(OrderService.class))
                    .getBytes(StandardCharsets.UTF_8));
        } finally {
            model.destroy();
        }
    }

    private static List<MethodCandidate> methods(JsonNode definition) {
        List<MethodCandidate> methods = new ArrayList<>();
        for (JsonNode method : definition.path("methods")) {
            List<String> types = new ArrayList<>();
            method.path("parameterTypes").forEach(type -> types.add(type.asText()));
            methods.add(MethodCandidate.of(method.path("name").asText(), types));
        }
        return methods;
    }

    /** A call of {@code method} with the JSON array {@code arguments}, typed from the definition. */
    static GenericCall call(String method, String arguments, String group, String version, String uniqueId) {
        JsonNode args = ExactJson.parse(arguments.getBytes(StandardCharsets.UTF_8));
        List<JavaType> types = MethodChooser.choose(method, args, METHODS, List.of(), null);
        return new GenericCall(OrderService.class.getName(), method, group, version, uniqueId, types, args, CATALOG,
                5000);
    }

    /** What the HTTP side answers when a call stops before the wire: status and body, as a reply. */
    static String stopped(RuntimeException e) {
        if (e instanceof CallErrorException error) {
            return error.error().status() + " " + error.error().toJson();
        }
        if (e instanceof JsonMappingException mapping) {
            return "400 " + io.tollgate.protocols.generic.CallError.badRequest(mapping.getMessage()).toJson();
        }
        throw e;
    }

    /** {@code reply} as "status canonical-body". */
    static String answer(GenericReply reply) {
        return reply.status() + " " + (reply.isError() ? reply.body() : RawExchange.canonical(reply.value()));
    }
}
