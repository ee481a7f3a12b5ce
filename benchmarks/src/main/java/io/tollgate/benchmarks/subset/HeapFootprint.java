package io.tollgate.benchmarks.subset;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.ForwardActionConfig;
import io.tollgate.core.config.HeaderMutationConfig;
import io.tollgate.core.config.RouteConfig;
import io.tollgate.core.config.RouteEntryConfig;
import io.tollgate.core.config.RouteMatchConfig;
import io.tollgate.core.config.ValueMatcherConfig;
import io.tollgate.core.config.VirtualHostConfig;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.ClusterManager;
import io.tollgate.router.route.RouteTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * Builds the heap scenario, 50,000 labelled hosts in 100 subset-balanced clusters plus
 * 5,000 routes told apart by a Bolt {@code service} header, keeps it reachable and prints the
 * heap histogram of live objects ({@code jcmd <pid> GC.class_histogram}, which runs a full GC
 * first): the total line is the footprint, the JVM's own start-up objects included.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar io.tollgate.benchmarks.subset.HeapFootprint</pre>
 */
public final class HeapFootprint {

    private static final int CLUSTERS = 100;
    private static final int HOSTS_PER_CLUSTER = 500;
    private static final int ROUTES = 5_000;

    private HeapFootprint() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        ClusterManager clusters = ClusterManager.of(clusters());
        RouteTable routes = RouteTable.compile(new RouteConfig(List.of(new VirtualHostConfig("vh", List.of("*"), routes()))));
        Process jcmd = new ProcessBuilder("jcmd", Long.toString(ProcessHandle.current().pid()), "GC.class_histogram")
                .redirectErrorStream(true).start();
        String histogram = new String(jcmd.getInputStream().readAllBytes());
        jcmd.waitFor();
        String[] lines = histogram.split("\n");
        for (int i = 0; i < Math.min(lines.length, 25); i++) {
            System.out.println(lines[i]);
        }
        System.out.println(lines[lines.length - 1]);
        System.out.println("kept: " + clusters.clusters().size() + " clusters, " + routes.routes().size() + " routes");
    }

    private static List<Cluster> clusters() {
        Random random = new Random(7);
        List<Cluster> clusters = new ArrayList<>(CLUSTERS);
        for (int c = 0; c < CLUSTERS; c++) {
            List<EndpointConfig> endpoints = new ArrayList<>(HOSTS_PER_CLUSTER);
            for (int h = 0; h < HOSTS_PER_CLUSTER; h++) {
                endpoints.add(MosnLabels.endpoint(c * HOSTS_PER_CLUSTER + h,
                        MosnLabels.ZONES.get(random.nextInt(MosnLabels.ZONES.size()))));
            }
            ClusterConfig config = MosnLabels.cluster(0, "round_robin").withEndpoints(endpoints);
            clusters.add(new Cluster(new ClusterConfig("cluster" + c, config.lbPolicy(), config.endpoints(),
                    config.connectTimeout(), config.maxConnectionsPerHost(), config.maxPendingRequests(),
                    config.idleTimeout()).withSubsetLbConfig(config.subsetLbConfig())));
        }
        return clusters;
    }

    private static List<RouteEntryConfig> routes() {
        List<RouteEntryConfig> entries = new ArrayList<>(ROUTES);
        for (int i = 0; i < ROUTES; i++) {
            RouteMatchConfig match = new RouteMatchConfig(Optional.empty(), Optional.of("/"), Optional.empty(),
                    List.of(new ValueMatcherConfig("service", Optional.of("com.example.Service" + i + ":1.0"),
                            Optional.empty(), false, false)), List.of());
            ForwardActionConfig forward = new ForwardActionConfig(Optional.of("cluster" + i % CLUSTERS), List.of(),
                    Optional.empty(), Optional.empty(), ForwardActionConfig.DEFAULT_TIMEOUT, Map.of());
            entries.add(new RouteEntryConfig("route" + i, match, Optional.of(forward), Optional.empty(), Optional.empty(),
                    HeaderMutationConfig.NONE, HeaderMutationConfig.NONE));
        }
        return entries;
    }
}
