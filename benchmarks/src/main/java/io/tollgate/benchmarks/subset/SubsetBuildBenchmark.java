package io.tollgate.benchmarks.subset;

import io.tollgate.core.config.SubsetLbConfig;
import io.tollgate.core.config.SubsetSelectorConfig;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.HostSet;
import io.tollgate.router.cluster.SubsetIndex;
import io.tollgate.router.host.Host;
import java.util.ArrayList;
import java.util.HashMap;
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
 * Builds the subset index of MOSN's input from scratch, over the hosts as a cluster holds them: the bitmap index ({@code bitmap}) against
 * a naive builder that, for every selector, reads every host's value of every key and groups the
 * hosts by those values ({@code naive}, O(selectors x hosts x keys)). Run with {@code -prof gc}
 * for the bytes allocated per build.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SubsetBuildBenchmark {

    @Param({"100", "1000", "8000", "20000", "50000"})
    int hosts;

    private HostSet hostSet;
    private List<Host> hostList;
    private SubsetLbConfig config;

    @Setup
    public void setUp() {
        hostSet = new Cluster(MosnLabels.cluster(hosts, "round_robin")).hostSet();
        hostList = hostSet.hosts();
        config = MosnLabels.subsets();
    }

    @Benchmark
    public SubsetIndex bitmap() {
        return SubsetIndex.build(hostSet, config);
    }

    @Benchmark
    public Map<List<String>, List<Host>> naive() {
        Map<List<String>, List<Host>> subsets = new HashMap<>();
        for (SubsetSelectorConfig selector : config.selectors()) {
            hosts:
            for (Host host : hostList) {
                List<String> path = new ArrayList<>(selector.keys().size() * 2);
                for (String key : selector.keys()) {
                    String value = host.labels().get(key);
                    if (value == null) {
                        continue hosts;
                    }
                    path.add(key);
                    path.add(value);
                }
                subsets.computeIfAbsent(path, p -> new ArrayList<>()).add(host);
            }
        }
        return subsets;
    }
}
