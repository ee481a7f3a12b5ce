package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * One upstream host. Checks its own ranges, so that configuration built without the file (xDS
 * endpoints, translated straight into records because a push may carry tens of thousands) obeys
 * the file's rules.
 *
 * @param address a host name or address, not empty
 * @param port 1..65535
 * @param weight relative share for weighted load balancers, 1..{@value #MAX_WEIGHT}
 * @param labels free-form labels used by subset load balancing
 */
public record EndpointConfig(String address, int port, int weight, Map<String, String> labels) {

    /** The largest weight of one endpoint. */
    public static final int MAX_WEIGHT = 1_000_000;

    public EndpointConfig {
        requireNonNull(address, "address");
        if (address.isEmpty()) {
            throw new IllegalArgumentException("address: '' (expected: a host name or address)");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port: " + port + " (expected: 1..65535)");
        }
        if (weight < 1 || weight > MAX_WEIGHT) {
            throw new IllegalArgumentException("weight: " + weight + " (expected: 1.." + MAX_WEIGHT + ")");
        }
        labels = Map.copyOf(labels);
    }
}
