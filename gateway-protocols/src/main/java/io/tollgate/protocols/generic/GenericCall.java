package io.tollgate.protocols.generic;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.tollgate.protocols.hessian2.Hessian2ValueWriter;
import io.tollgate.protocols.json.JavaType;
import io.tollgate.protocols.json.JsonToHessian2;
import io.tollgate.protocols.json.ObjectForm;
import io.tollgate.protocols.json.TypeCatalog;
import java.util.List;

/**
 * One call to make on a provider's behalf: which service and method, its group, version and
 * uniqueId, the chosen parameter types and the JSON arguments, one per type.
 *
 * @param service the interface name
 * @param method the method name
 * @param group Dubbo's group, or null
 * @param version the service version, or null (SOFARPC's default {@code 1.0} is then used for SOFA)
 * @param uniqueId SOFARPC's uniqueId, or null
 * @param parameterTypes the parameter types, as many as arguments
 * @param arguments the arguments, a JSON array
 * @param catalog what is known of the service's classes
 * @param timeoutMillis the timeout the provider is told
 */
public record GenericCall(String service, String method, String group, String version, String uniqueId,
        List<JavaType> parameterTypes, JsonNode arguments, TypeCatalog catalog, int timeoutMillis) {

    public GenericCall {
        requireNonNull(service, "service");
        requireNonNull(method, "method");
        parameterTypes = List.copyOf(parameterTypes);
        requireNonNull(arguments, "arguments");
        requireNonNull(catalog, "catalog");
        if (!arguments.isArray() || arguments.size() != parameterTypes.size()) {
            throw new IllegalArgumentException(parameterTypes.size() + " parameter types for arguments " + arguments);
        }
    }

    /**
     * Writes the parameter type names, a {@code String[]}: as Dubbo's generic call names them
     * ({@code java.lang.String[]}), or, with {@code jvmNames}, as SOFARPC does ({@code [Ljava.lang.String;}).
     */
    void writeTypeNames(Hessian2ValueWriter body, boolean jvmNames) {
        body.startList("[string", parameterTypes.size());
        parameterTypes.forEach(type -> body.writeString(jvmNames ? type.jvmName() : type.erasedName()));
        body.endList();
    }

    /**
     * Writes each argument as its parameter's type, one value after the other.
     *
     * @throws io.tollgate.protocols.json.JsonMappingException when one does not fit (400)
     */
    void writeArguments(Hessian2ValueWriter body, ObjectForm form) {
        JsonToHessian2 writer = new JsonToHessian2(body, form, catalog);
        for (int i = 0; i < parameterTypes.size(); i++) {
            writer.write(arguments.get(i), parameterTypes.get(i), "$[" + i + "]");
        }
    }
}
