package io.tollgate.protocols.generic;

import static java.util.Objects.requireNonNull;

import io.tollgate.protocols.json.JavaType;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A method a call may mean: its name and parameter types, from the registry's service definition,
 * the route's configuration or the {@code x-rpc-types} header.
 */
public record MethodCandidate(String name, List<JavaType> parameterTypes) {

    public MethodCandidate {
        requireNonNull(name, "name");
        parameterTypes = List.copyOf(parameterTypes);
    }

    /** A candidate from type names as registries write them ({@code java.util.List<java.lang.String>}). */
    public static MethodCandidate of(String name, List<String> parameterTypes) {
        return new MethodCandidate(name, parameterTypes.stream().map(JavaType::parse).toList());
    }

    /** {@code name(type, type)}, for messages. */
    @Override
    public String toString() {
        return name + parameterTypes.stream().map(JavaType::toString).collect(Collectors.joining(", ", "(", ")"));
    }
}
