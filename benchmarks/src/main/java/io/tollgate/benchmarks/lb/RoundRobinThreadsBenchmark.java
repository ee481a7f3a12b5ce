package io.tollgate.benchmarks.lb;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.EndpointConfig;
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
 * Chooses hosts by {@code round_robin} in one cluster of 100 hosts shared by every benchmark
 * thread, as the event loops of a gateway share it: run with {@code -t 1} and {@code -t 2} to see
 * what threads choosing at once cost each other. {@code equal}: all weights 1; {@code mixed}:
 * weights 1 to 4.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RoundRobinThreadsBenchmark {

    private static final int HOSTS = 100;

    @Param({"equal", "mixed"})
    String weights;

    private Cluster cluster;
    private RouteRequest request;

    @Setup
    public void setUp() {
        List<EndpointConfig> endpoints = new ArrayList<>(HOSTS);
        for (int i = 0; i < HOSTS; i++) {
            int weight = weights.equals("equal") ? 1 : 1 + i % 4;
            endpoints.add(new EndpointConfig("10.0." + (i >> 8) + "." + (i & 255), 8080, weight, Map.of()));
        }
        cluster = new Cluster(new ClusterConfig("rr", "round_robin", endpoints, Duration.ofSeconds(1), 1, 1,
                Duration.ofSeconds(1)));
        request = new HeaderRequest(Map.of());
    }

    @Benchmark
    public Host choose() {
        return cluster.choose(request);
    }
}
