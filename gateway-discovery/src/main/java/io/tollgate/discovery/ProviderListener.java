package io.tollgate.discovery;

import io.tollgate.core.config.EndpointConfig;
import java.util.List;

/** Receives the providers of one subscription, on the executor the registry client was given. */
@FunctionalInterface
public interface ProviderListener {

    /**
     * The whole list of providers now known, each address once, the unchanged ones as the very
     * objects given last time and in the same order (so that a cluster applies only what changed).
     *
     * @param synced whether the registry's state was read whole once; before that the list may be partial
     * @param changedAtNanos when ({@link System#nanoTime()}) the client received the oldest registry
     *     event this list is the first to carry, so that the user can tell how long a change took to
     *     serve; 0 when the list carries no new event (a warmup step, a client that does not stamp)
     */
    void providers(List<EndpointConfig> providers, boolean synced, long changedAtNanos);
}
