package io.tollgate.protocols.generic;

import com.fasterxml.jackson.databind.JsonNode;
import io.tollgate.protocols.json.JavaType;
import io.tollgate.protocols.json.JsonShapes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Chooses the parameter types of a call. The types come from the first source that knows the
 * method: the registry's service definitions, then the route's configuration, then the client's
 * {@code x-rpc-types} header. Among overloads the arity decides, then the JSON's shapes
 * ({@link JsonShapes}); what stays ambiguous, or fits nothing, is a 400 naming the candidates; a
 * method the registry or configuration does not list while they list others is a 404.
 */
public final class MethodChooser {

    private MethodChooser() {
    }

    /**
     * @param method the method called
     * @param arguments the JSON array of arguments
     * @param registry the methods the registry lists for the service, empty when it lists none
     * @param configured the methods the route's configuration lists for the service, empty when none
     * @param headerTypes the types of the {@code x-rpc-types} header, or null when absent
     * @throws CallErrorException with a 400 or 404
     */
    public static List<JavaType> choose(String method, JsonNode arguments, List<MethodCandidate> registry,
            List<MethodCandidate> configured, List<JavaType> headerTypes) {
        List<MethodCandidate> candidates = named(method, registry);
        if (candidates.isEmpty()) {
            candidates = named(method, configured);
        }
        if (!candidates.isEmpty() && headerTypes != null) {
            return named(candidates, headerTypes);
        }
        if (candidates.isEmpty() && headerTypes != null) {
            candidates = List.of(new MethodCandidate(method, headerTypes));
        }
        if (candidates.isEmpty()) {
            if (!registry.isEmpty() || !configured.isEmpty()) {
                throw new CallErrorException(CallError.notFound("the service has no method " + method));
            }
            throw new CallErrorException(CallError.badRequest("the parameter types of " + method
                    + " are unknown: the registry publishes none and the route lists none; name them in x-rpc-types"));
        }
        List<MethodCandidate> sameArity = new ArrayList<>();
        for (MethodCandidate candidate : candidates) {
            if (candidate.parameterTypes().size() == arguments.size()) {
                sameArity.add(candidate);
            }
        }
        if (sameArity.isEmpty()) {
            throw new CallErrorException(CallError.badRequest(arguments.size() + " arguments for "
                    + describe(candidates)));
        }
        if (sameArity.size() == 1) {
            return sameArity.get(0).parameterTypes();
        }
        List<MethodCandidate> fitting = new ArrayList<>();
        for (MethodCandidate candidate : sameArity) {
            if (fits(candidate, arguments)) {
                fitting.add(candidate);
            }
        }
        if (fitting.size() == 1) {
            return fitting.get(0).parameterTypes();
        }
        throw new CallErrorException(CallError.badRequest((fitting.isEmpty()
                ? "the arguments fit no overload: " : "ambiguous call, name the types in x-rpc-types: ")
                + describe(fitting.isEmpty() ? sameArity : fitting)));
    }

    /** The candidate {@code x-rpc-types} names (by erased types), with the generic types its source gave. */
    private static List<JavaType> named(List<MethodCandidate> candidates, List<JavaType> headerTypes) {
        List<String> wanted = headerTypes.stream().map(JavaType::erasedName).toList();
        for (MethodCandidate candidate : candidates) {
            if (candidate.parameterTypes().stream().map(JavaType::erasedName).toList().equals(wanted)) {
                return candidate.parameterTypes();
            }
        }
        throw new CallErrorException(CallError.badRequest("x-rpc-types " + wanted + " names none of "
                + describe(candidates)));
    }

    private static boolean fits(MethodCandidate candidate, JsonNode arguments) {
        for (int i = 0; i < arguments.size(); i++) {
            if (!JsonShapes.fits(candidate.parameterTypes().get(i), arguments.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static List<MethodCandidate> named(String method, List<MethodCandidate> methods) {
        return methods.stream().filter(candidate -> candidate.name().equals(method)).toList();
    }

    private static String describe(List<MethodCandidate> candidates) {
        return candidates.stream().map(MethodCandidate::toString).collect(Collectors.joining("; "));
    }
}
