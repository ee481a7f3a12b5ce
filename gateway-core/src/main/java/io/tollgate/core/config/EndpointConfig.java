package io.tollgate.core.config;

import java.util.Map;

/**
 * One upstream host.
 *
 * @param weight relative share for weighted load balancers, at least 1
 * @param labels free-form labels used by subset load balancing
 */
public record EndpointConfig(String address, int port, int weight, Map<String, String> labels) {

    public EndpointConfig {
        labels = Map.copyOf(labels);
    }
}
