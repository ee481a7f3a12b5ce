package io.tollgate.discovery;

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

    /** Stops the watch; the listener hears nothing more. */
    @Override
    void close();
}
