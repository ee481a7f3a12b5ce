package io.tollgate.discovery;

import java.time.Instant;
import java.util.Optional;

/**
 * What the admin API shows of one registry client.
 *
 * @param name the registry's name in the configuration
 * @param type its type, e.g. {@code zookeeper}
 * @param address where it connects
 * @param connected whether the client is connected now
 * @param state the client's connection state as its library names it
 * @param subscriptions the services watched
 * @param events the registry events received
 * @param errors registrations that could not be read (a node that is no provider URL)
 * @param lastEvent when the last event arrived, if any did
 * @param lastError the last error the client met (a request refused, a registration not read), if any
 */
public record RegistryStatus(String name, String type, String address, boolean connected, String state,
        int subscriptions, long events, long errors, Optional<Instant> lastEvent, Optional<String> lastError) {

    /** The state of a client that keeps no last error. */
    public RegistryStatus(String name, String type, String address, boolean connected, String state,
            int subscriptions, long events, long errors, Optional<Instant> lastEvent) {
        this(name, type, address, connected, state, subscriptions, events, errors, lastEvent, Optional.empty());
    }
}
