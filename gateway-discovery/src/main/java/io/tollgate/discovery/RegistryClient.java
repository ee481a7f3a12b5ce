package io.tollgate.discovery;

import io.tollgate.core.config.ProviderQueryConfig;

/**
 * One connection to one service registry, kept by the registry's own client library (Curator for
 * ZooKeeper). It reconnects by itself; while the registry is unreachable its subscribers keep the
 * last providers they were told of. It knows nothing of the gateway's connections: providers go
 * to listeners on the executor the client was made with (the control thread), and nothing of it
 * ever waits on an event loop or makes one wait.
 */
public interface RegistryClient extends AutoCloseable {

    /** Watches the providers of {@code query}'s service; {@code listener} hears each change. */
    Subscription subscribe(ProviderQueryConfig query, ProviderListener listener);

    /** What the client knows of its registry now. */
    RegistryStatus status();

    /** Closes the connection; may wait for the registry to acknowledge, so not on the control thread. */
    @Override
    void close();
}
