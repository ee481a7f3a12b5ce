package io.tollgate.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** What a registry client watches for one {@link ProviderListener}; closing it stops the watch. */
public interface Subscription extends AutoCloseable {

    /**
     * The methods of the service as its providers published them, read in the background once
     * providers are known; empty until then, or when the registry publishes none (SOFARPC).
     */
    default List<MethodSignature> methods() {
        return List.of();
    }

    /**
     * The service definition {@link #methods()} were read from (Dubbo's, with its {@code types[]}:
     * every bean's fields), or null while there is none; read before the methods are published.
     */
    default JsonNode definition() {
        return null;
    }

    /** Stops the watch; the listener hears nothing more. */
    @Override
    void close();
}
