package io.tollgate.benchmarks.lb;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.HashPolicyConfig;
import io.tollgate.core.config.LoadBalancingConfig;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.host.Host;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Chooses a host with {@code ring_hash} or {@code maglev} in a cluster of 100 or 10,000 equal
 * hosts, hashing a request header ({@code x-user}, 1024 distinct values in turn): the whole
 * per-request cost of a hash balancer, the header's xxh3 plus the ring's binary search or the
 * table read. The ring or table is built when the cluster is. MUST allocate nothing: check
 * {@code gc.alloc.rate.norm} with {@code -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HashLoadBalancerBenchmark {

    private static final int KEYS = 1024;

    @Param({"100", "10000"})
    int hosts;

    @Param({"ring_hash", "maglev"})
    String lbPolicy;

    private Cluster cluster;
    private final RouteRequest[] requests = new RouteRequest[KEYS];
    private int next;

    @Setup
    public void setUp() {
        List<EndpointConfig> endpoints = new ArrayList<>(hosts);
        for (int i = 0; i < hosts; i++) {
            endpoints.add(new EndpointConfig("10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255), 8080, 1,
                    Map.of()));
        }
        LoadBalancingConfig settings = LoadBalancingConfig.DEFAULTS.withHashPolicy(
                List.of(new HashPolicyConfig(HashPolicyConfig.Source.HEADER, "x-user", false)));
        cluster = new Cluster(new ClusterConfig("hash", lbPolicy, endpoints, Duration.ofSeconds(1), 1, 1,
                Duration.ofSeconds(1)).withLoadBalancing(settings));
        for (int i = 0; i < KEYS; i++) {
            requests[i] = new HeaderRequest(Map.of("x-user", "user-" + i));
        }
    }

    @Benchmark
    public Host choose() {
        return cluster.choose(requests[next++ & (KEYS - 1)]);
    }
}
