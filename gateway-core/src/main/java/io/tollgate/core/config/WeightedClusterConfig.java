package io.tollgate.core.config;

/** A cluster and its share of a route's traffic. */
public record WeightedClusterConfig(String name, int weight) {
}
