package io.tollgate.core.config;

import java.time.Instant;
import java.util.Optional;

/**
 * What {@code /config_dump} shows of one resource received from an xDS control plane; in the core
 * so that the admin API shows it without knowing the xDS client.
 *
 * @param type the resource's kind, e.g. {@code Cluster}
 * @param name its name; {@code *} for a rejection that concerns a whole response
 * @param version the {@code version_info} of the response it was last accepted in; empty if never
 * @param lastUpdated when it was last accepted, or rejected if never accepted
 * @param lastNack why its last rejection was, if it ever was rejected
 */
public record XdsResourceStatus(String type, String name, String version, Instant lastUpdated, Optional<String> lastNack) {
}
