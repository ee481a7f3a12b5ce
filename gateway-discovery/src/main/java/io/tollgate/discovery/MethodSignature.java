package io.tollgate.discovery;

import java.util.List;

/**
 * One method of a service as its provider published it (Dubbo's service definition in the
 * metadata report): its name, parameter types (generic arguments kept, as Dubbo writes them;
 * the erased type is what goes on the wire) and return type. Overloads are separate methods.
 */
public record MethodSignature(String name, List<String> parameterTypes, String returnType) {

    public MethodSignature {
        parameterTypes = List.copyOf(parameterTypes);
    }
}
