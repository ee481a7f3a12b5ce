package io.tollgate.server.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import io.tollgate.discovery.MethodSignature;
import io.tollgate.discovery.Subscription;
import io.tollgate.protocols.generic.MethodCandidate;
import io.tollgate.protocols.json.JsonMappingException;
import io.tollgate.protocols.json.TypeCatalog;
import io.tollgate.server.rpccall.PublishedTypes;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A subscription's published methods and classes as HTTP calls use them, converted once per
 * publication and read by event loops without a lock (a race only converts twice).
 */
final class PublishedTypesCache {

    private static final Logger log = LoggerFactory.getLogger(PublishedTypesCache.class);

    private record Converted(List<MethodSignature> from, PublishedTypes types) {
    }

    private volatile Converted converted;

    /** What {@code subscription} publishes now; its definition is read before the methods it gave. */
    PublishedTypes of(Subscription subscription) {
        List<MethodSignature> methods = subscription.methods();
        Converted cached = converted;
        if (cached == null || cached.from != methods) {
            JsonNode definition = subscription.definition();
            cached = new Converted(methods, new PublishedTypes(candidates(methods),
                    definition == null ? TypeCatalog.EMPTY : TypeCatalog.fromServiceDefinition(definition)));
            converted = cached;
        }
        return cached.types;
    }

    /** The methods whose type names can be read, as call candidates; a method whose cannot is left out. */
    private static List<MethodCandidate> candidates(List<MethodSignature> methods) {
        List<MethodCandidate> candidates = new ArrayList<>(methods.size());
        for (MethodSignature method : methods) {
            try {
                candidates.add(MethodCandidate.of(method.name(), method.parameterTypes()));
            } catch (JsonMappingException e) {
                log.debug("method {} of a service definition has a type that cannot be read: {}", method.name(),
                        e.getMessage());
            }
        }
        return candidates;
    }
}
