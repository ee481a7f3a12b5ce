package io.tollgate.benchmarks.subset;

import io.tollgate.core.config.EndpointConfig;
import io.tollgate.router.cluster.Cluster;
import java.util.ArrayList;
import java.util.List;
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
 * Applies an endpoint update touching 1% of a 50,000-host cluster with MOSN's labels and
 * selectors, and publishes the new version: {@code relabel} moves 500 hosts to another zone (and
 * back on the next call), {@code churn} removes 500 hosts and adds 500 others (swapped back on
 * the next call).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SubsetUpdateBenchmark {

    private static final int HOSTS = 50_000;
    private static final int CHANGED = HOSTS / 100;

    @Param({"relabel", "churn"})
    String kind;

    private Cluster cluster;
    private final List<List<EndpointConfig>> upserts = new ArrayList<>();
    private final List<List<String>> removals = new ArrayList<>();
    private int turn;

    @Setup
    public void setUp() {
        cluster = new Cluster(MosnLabels.cluster(HOSTS, "round_robin"));
        List<EndpointConfig> moved = new ArrayList<>();
        List<EndpointConfig> back = new ArrayList<>();
        List<EndpointConfig> fresh = new ArrayList<>();
        List<String> original = new ArrayList<>();
        List<String> freshIds = new ArrayList<>();
        List<EndpointConfig> endpoints = MosnLabels.endpoints(HOSTS);
        for (int i = 0; i < CHANGED; i++) {
            EndpointConfig endpoint = endpoints.get(i * 100);
            String zone = endpoint.labels().get("zone");
            String other = MosnLabels.ZONES.get((MosnLabels.ZONES.indexOf(zone) + 1) % MosnLabels.ZONES.size());
            moved.add(MosnLabels.endpoint(i * 100, other));
            back.add(endpoint);
            EndpointConfig added = MosnLabels.endpoint(HOSTS + i, zone);
            fresh.add(added);
            original.add(endpoint.address() + ":" + endpoint.port());
            freshIds.add(added.address() + ":" + added.port());
        }
        if (kind.equals("relabel")) {
            upserts.add(moved);
            upserts.add(back);
            removals.add(List.of());
            removals.add(List.of());
        } else {
            upserts.add(fresh);
            upserts.add(back);
            removals.add(original);
            removals.add(freshIds);
        }
    }

    @Benchmark
    public Cluster update() {
        int i = turn++ & 1;
        cluster.update(upserts.get(i), removals.get(i));
        return cluster;
    }
}
