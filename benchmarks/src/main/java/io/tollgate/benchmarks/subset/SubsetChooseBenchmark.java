package io.tollgate.benchmarks.subset;

import io.tollgate.benchmarks.lb.HeaderRequest;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.host.Host;
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
 * Chooses a host for a request in a cluster with MOSN's labels and selectors: the subset named by
 * the route's metadata match ({@code route}: zone and version, an exact subset) or by request
 * headers ({@code header}: {@code x-subset-zone}), then the cluster's load balancer inside it
 * ({@code ring_hash} and {@code maglev} without a hash policy hash each request at random).
 * MUST allocate nothing: check {@code gc.alloc.rate.norm} with {@code -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SubsetChooseBenchmark {

    @Param({"8000", "50000"})
    int hosts;

    @Param({"round_robin", "random", "least_request", "ring_hash", "maglev"})
    String lbPolicy;

    @Param({"route", "header"})
    String metadata;

    private Cluster cluster;
    private Map<String, String> metadataMatch;
    private RouteRequest request;

    @Setup
    public void setUp() {
        cluster = new Cluster(MosnLabels.cluster(hosts, lbPolicy));
        boolean fromRoute = metadata.equals("route");
        metadataMatch = fromRoute ? Map.of("zone", "zone-b", "mosn_version", "1.0.0") : Map.of();
        request = new HeaderRequest(fromRoute ? Map.of() : Map.of("x-subset-zone", "zone-b"));
        if (cluster.choose(request, metadataMatch) == null || cluster.subsetStats().exactMatches() != 1) {
            throw new IllegalStateException("the request must resolve to an exact subset");
        }
    }

    @Benchmark
    public Host choose() {
        return cluster.choose(request, metadataMatch);
    }
}
