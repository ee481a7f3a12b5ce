package io.tollgate.core.config;

import java.util.List;
import java.util.Optional;

/**
 * The settings of a cluster's load balancer beyond its policy name, each read only by the
 * policies it concerns. The configuration type of load-balancing extensions: the policy named by
 * {@code lb_policy} reads its own settings into it (see {@code io.tollgate.core.extension}).
 *
 * @param hashPolicy for {@code ring_hash} and {@code maglev}: what of a request is hashed, tried in
 *     order and combined; empty, or no source present in a request, means a random host
 * @param minimumRingSize for {@code ring_hash}: the fewest points on the ring
 * @param maximumRingSize for {@code ring_hash}: the most points on the ring
 * @param maglevTableSize for {@code maglev}: the lookup table's size, a prime
 * @param slowStart for {@code round_robin} and {@code least_request}: how hosts added by an update
 *     ramp up, if at all
 */
public record LoadBalancingConfig(
        List<HashPolicyConfig> hashPolicy,
        int minimumRingSize,
        int maximumRingSize,
        int maglevTableSize,
        Optional<SlowStartConfig> slowStart) {

    /** Envoy's default minimum ring size. */
    public static final int DEFAULT_MINIMUM_RING_SIZE = 1024;
    /** Envoy's default maximum ring size. */
    public static final int DEFAULT_MAXIMUM_RING_SIZE = 8 * 1024 * 1024;
    /** Envoy's default Maglev table size: prime, and large enough for thousands of hosts. */
    public static final int DEFAULT_MAGLEV_TABLE_SIZE = 65_537;

    /** No hash policy, default ring and table sizes, no slow start. */
    public static final LoadBalancingConfig DEFAULTS = new LoadBalancingConfig(List.of(), DEFAULT_MINIMUM_RING_SIZE,
            DEFAULT_MAXIMUM_RING_SIZE, DEFAULT_MAGLEV_TABLE_SIZE, Optional.empty());

    public LoadBalancingConfig {
        hashPolicy = List.copyOf(hashPolicy);
        if (minimumRingSize < 1 || maximumRingSize < minimumRingSize) {
            throw new IllegalArgumentException("minimumRingSize: " + minimumRingSize + ", maximumRingSize: "
                    + maximumRingSize + " (expected: 1 <= minimum <= maximum)");
        }
        if (!isPrime(maglevTableSize)) {
            throw new IllegalArgumentException("maglevTableSize: " + maglevTableSize + " (expected: a prime)");
        }
    }

    /** Whether {@code n} is a prime; trial division, for configuration checks only. */
    public static boolean isPrime(int n) {
        if (n < 2) {
            return false;
        }
        for (int d = 2; (long) d * d <= n; d++) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }

    /** These settings with {@code hashPolicy} instead. */
    public LoadBalancingConfig withHashPolicy(List<HashPolicyConfig> hashPolicy) {
        return new LoadBalancingConfig(hashPolicy, minimumRingSize, maximumRingSize, maglevTableSize, slowStart);
    }

    /** These settings with {@code slowStart} instead. */
    public LoadBalancingConfig withSlowStart(Optional<SlowStartConfig> slowStart) {
        return new LoadBalancingConfig(hashPolicy, minimumRingSize, maximumRingSize, maglevTableSize, slowStart);
    }

    /** These settings with the ring sizes {@code minimum} and {@code maximum} instead. */
    public LoadBalancingConfig withRingSizes(int minimum, int maximum) {
        return new LoadBalancingConfig(hashPolicy, minimum, maximum, maglevTableSize, slowStart);
    }

    /** These settings with the Maglev table size {@code tableSize} instead. */
    public LoadBalancingConfig withMaglevTableSize(int tableSize) {
        return new LoadBalancingConfig(hashPolicy, minimumRingSize, maximumRingSize, tableSize, slowStart);
    }
}
