package io.tollgate.benchmarks.filter;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.core.extension.ExtensionRegistry;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.FilterStatus;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterFactory;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * The CPU a built-in stream filter adds to a request: its {@code onRequest}, with the filter made
 * from YAML by its registered factory, as a listener's chain holds it, and requests whose values
 * are fixed in memory (so the figure is the filter's own work, nanoseconds per request). Requests
 * come from 1024 client addresses; every case lets them all through (the work a passing request
 * costs, which is what every request pays), apart from {@code rbac_deny_match}, which refuses.
 *
 * <ul>
 *   <li>{@code rbac_allow_cidr}: ALLOW, one policy, three IPv4 ranges, the client in the last;
 *   <li>{@code rbac_deny_3_policies}: DENY, three policies (path prefix, header, RPC service and
 *       method), none matching: every condition is checked;
 *   <li>{@code rbac_deny_match}: the same, the request matching the header policy;
 *   <li>{@code rate_limit_listener}: one bucket for the chain (large enough never to run out);
 *   <li>{@code rate_limit_client_ip}: a bucket per client address, 1024 of them.
 * </ul>
 * {@link #onRequestTwoThreads} runs the same on two threads sharing the filter: what contended
 * buckets cost when two event loops take tokens at once.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StreamFilterBenchmark {

    private static final int REQUESTS = 1024;

    @Param({"rbac_allow_cidr", "rbac_deny_3_policies", "rbac_deny_match", "rate_limit_listener",
        "rate_limit_client_ip"})
    String filter;

    private StreamFilter instance;
    private SimpleMeterRegistry meters;

    @Setup
    public void setUp() {
        String yaml = """
                listeners:
                  - name: bench
                    filters:
                      - %s
                    route_config:
                      virtual_hosts:
                        - { name: vh, domains: ["*"], routes: [{ match: { prefix: / }, direct_response: { status: 200 } }] }
                """.formatted(entry());
        StreamFilterConfig config = ConfigLoader.parse(yaml).listeners().get(0).filters().get(0);
        StreamFilterFactory factory = ExtensionRegistry.defaults()
                .find(StreamFilterConfig.class, config.kind(), StreamFilterFactory.class).orElseThrow();
        meters = new SimpleMeterRegistry();
        instance = factory.create(config, new FilterScope("bench", null, meters));
    }

    @TearDown
    public void tearDown() {
        meters.close();
    }

    private String entry() {
        return switch (filter) {
            case "rbac_allow_cidr" -> "{ name: rbac, action: ALLOW, policies: [{ name: office, permissions: [{ any: true }],"
                    + " principals: [{ source_ip: [192.168.0.0/16, 172.16.0.0/12, 10.0.0.0/8] }] }] }";
            case "rbac_deny_3_policies", "rbac_deny_match" -> "{ name: rbac, action: DENY, policies: ["
                    + " { name: admin, permissions: [{ path: { prefix: /admin } }], principals: [{ any: true }] },"
                    + " { name: mallory, permissions: [{ any: true }], principals: [{ header: { name: x-user, exact: mallory } }] },"
                    + " { name: shutdown, permissions: [{ service: { exact: com.example.Admin }, method: { exact: shutdown } }],"
                    + " principals: [{ any: true }] } ] }";
            case "rate_limit_listener" -> "{ name: local_rate_limit, max_tokens: 1000000000, tokens_per_fill: 1000000000,"
                    + " fill_interval: 50ms }";
            case "rate_limit_client_ip" -> "{ name: local_rate_limit, max_tokens: 1000000000, tokens_per_fill: 1000000000,"
                    + " fill_interval: 50ms, descriptor: { client_ip: true } }";
            default -> throw new IllegalArgumentException(filter);
        };
    }

    /** The requests one thread sends, in turn. */
    @State(Scope.Thread)
    public static class Requests {
        private final BenchFilterContext[] contexts = new BenchFilterContext[REQUESTS];
        private int next;

        @Setup
        public void setUp(StreamFilterBenchmark benchmark) {
            String user = benchmark.filter.equals("rbac_deny_match") ? "mallory" : "alice";
            for (int i = 0; i < REQUESTS; i++) {
                contexts[i] = new BenchFilterContext("10." + (i >> 8) + "." + (i & 0xff) + ".7", "/api/users/" + i,
                        BenchFilterContext.typicalHeaders(user), null, "GET");
            }
        }

        @TearDown
        public void check(StreamFilterBenchmark benchmark) {
            int answered = 0;
            for (BenchFilterContext context : contexts) {
                answered += context.answers;
            }
            boolean refusing = benchmark.filter.equals("rbac_deny_match");
            if (refusing != (answered > 0)) {
                throw new IllegalStateException(benchmark.filter + ": " + answered + " requests answered");
            }
        }

        BenchFilterContext next() {
            return contexts[next++ & (REQUESTS - 1)];
        }
    }

    @Benchmark
    public FilterStatus onRequest(Requests requests) {
        return instance.onRequest(requests.next());
    }

    @Benchmark
    @Threads(2)
    public FilterStatus onRequestTwoThreads(Requests requests) {
        return instance.onRequest(requests.next());
    }
}
