package io.tollgate.discovery;

/** What a registry client watches for one {@link ProviderListener}; closing it stops the watch. */
public interface Subscription extends AutoCloseable {

    /** Stops the watch; the listener hears nothing more. */
    @Override
    void close();
}
