package io.tollgate.benchmarks.router;

import io.tollgate.core.config.DirectResponseConfig;
import io.tollgate.core.config.HeaderMutationConfig;
import io.tollgate.core.config.RouteConfig;
import io.tollgate.core.config.RouteEntryConfig;
import io.tollgate.core.config.RouteMatchConfig;
import io.tollgate.core.config.ValueMatcherConfig;
import io.tollgate.core.config.VirtualHostConfig;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.route.Route;
import io.tollgate.router.route.RouteTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
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
 * Measures how the cost of finding a route grows with the number of routes in a virtual host:
 * exact paths and prefixes are indexed (the cost should stay flat), routes that differ only by a
 * header all share the prefix {@code /} and are checked in order (the cost grows with the count).
 * Requests target routes spread uniformly over the table, so a scan would go halfway on average.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RouteLookupBenchmark {

    private static final int REQUESTS = 1024;

    @Param({"10", "1000", "5000"})
    int routes;

    @Param({"exact", "prefix", "header"})
    String kind;

    private RouteTable table;
    private RouteRequest[] requests;
    private int next;

    @Setup
    public void setUp() {
        List<RouteEntryConfig> entries = new ArrayList<>(routes);
        for (int i = 0; i < routes; i++) {
            entries.add(entry(i));
        }
        table = RouteTable.compile(new RouteConfig(List.of(new VirtualHostConfig("vh", List.of("*"), entries))));
        Random random = new Random(42);
        requests = new RouteRequest[REQUESTS];
        for (int i = 0; i < REQUESTS; i++) {
            requests[i] = request(random.nextInt(routes));
        }
        for (int i = 0; i < REQUESTS; i++) {
            if (table.route(requests[i]) == null) {
                throw new IllegalStateException("no route for request " + i + " of kind " + kind);
            }
        }
    }

    @Benchmark
    public Route lookup() {
        return table.route(requests[next++ & (REQUESTS - 1)]);
    }

    private RouteEntryConfig entry(int i) {
        RouteMatchConfig match;
        switch (kind) {
            case "exact":
                match = new RouteMatchConfig(Optional.of("/service" + i + "/call"), Optional.empty(), Optional.empty(),
                        List.of(), List.of());
                break;
            case "prefix":
                match = new RouteMatchConfig(Optional.empty(), Optional.of("/service" + i + "/"), Optional.empty(),
                        List.of(), List.of());
                break;
            case "header":
                match = new RouteMatchConfig(Optional.empty(), Optional.of("/"), Optional.empty(), List.of(
                        new ValueMatcherConfig("x-service", Optional.of("service" + i), Optional.empty(), false, false)),
                        List.of());
                break;
            default:
                throw new IllegalArgumentException("kind: " + kind + " (expected exact, prefix or header)");
        }
        return new RouteEntryConfig("r" + i, match, Optional.empty(), Optional.of(new DirectResponseConfig(200, "")),
                Optional.empty(), HeaderMutationConfig.NONE, HeaderMutationConfig.NONE);
    }

    private RouteRequest request(int target) {
        switch (kind) {
            case "exact":
                return new BenchmarkRequest("/service" + target + "/call", null);
            case "prefix":
                return new BenchmarkRequest("/service" + target + "/method/call", null);
            default:
                return new BenchmarkRequest("/call", "service" + target);
        }
    }

    /** A request with a path and, for header routes, the header they look at. */
    private record BenchmarkRequest(String path, String service) implements RouteRequest {

        @Override
        public String authority() {
            return "gateway";
        }

        @Override
        public String query() {
            return null;
        }

        @Override
        public String header(String name) {
            return name.equals("x-service") ? service : null;
        }
    }
}
