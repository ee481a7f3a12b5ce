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
 * @param errors registrations that could not be read (a node that is no provider URL, a metadata
 *     revision not resolved)
 * @param lastEvent when the last event arrived, if any did
 * @param metadataCalls calls of Dubbo providers' MetadataService (application-level discovery), each attempt one
 * @param metadataFailures those calls that failed (unreachable, timed out, or no MetadataInfo of the revision)
 * @param lastError the last error the client met (a request refused, a registration not read), if it keeps one
 */
public record RegistryStatus(String name, String type, String address, boolean connected, String state,
        int subscriptions, long events, long errors, Optional<Instant> lastEvent, long metadataCalls,
        long metadataFailures, Optional<String> lastError) {

    /** The status of a registry client that calls no MetadataService and keeps no last error. */
    public RegistryStatus(String name, String type, String address, boolean connected, String state,
            int subscriptions, long events, long errors, Optional<Instant> lastEvent) {
        this(name, type, address, connected, state, subscriptions, events, errors, lastEvent, 0, 0, Optional.empty());
    }
}
