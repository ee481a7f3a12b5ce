package io.tollgate.benchmarks.filter;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.core.extension.ExtensionRegistry;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterFactory;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a built-in stream filter's own work costs per HTTP request: its request, response and
 * completion callbacks on a browser-like request's eight headers and a response's four, as the
 * registry makes it from YAML. {@code none} is the same request and response with no filter (the
 * headers' copy every case pays), so a filter costs its figure less that one. A {@code mirror}
 * that chooses a request asks for a copy, which is counted here, not sent: the copy's sending is
 * an upstream request of its own, measured by the load harness. The {@code fault} cases let every
 * request through as a fault staged but not fired would: no abort header sent, percentages at 0,
 * or a header condition the request does not meet.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class BuiltInFilterBenchmark {

    private static final String ORIGINS =
            "allow_origin: [ { exact: \"https://a.example\" }, { suffix: \".shop.example\" } ]";
    private static final Map<String, String> FILTERS = Map.of(
            "none", "",
            "headers-literal", "{ name: headers, request_headers: { add: [ { name: x-gateway, value: tollgate },"
                    + " { name: x-env, value: prod } ], remove: [ x-debug ] },"
                    + " response_headers: { add: [ { name: cache-control, value: no-store } ], remove: [ server ] } }",
            "headers-variables", "{ name: headers, request_headers: { add: ["
                    + " { name: x-client-ip, value: \"%DOWNSTREAM_REMOTE_ADDRESS_WITHOUT_PORT%\" },"
                    + " { name: x-via, value: \"tollgate %LISTENER_NAME%/%ROUTE_NAME%\" } ], remove: [ x-debug ] },"
                    + " response_headers: { add: [ { name: x-request-id, value: \"%REQUEST_ID%\" },"
                    + " { name: x-served-by, value: \"%UPSTREAM_REMOTE_ADDRESS%\" } ] } }",
            "cors-actual", "{ name: cors, " + ORIGINS + ", expose_headers: x-request-id, allow_credentials: true }",
            "cors-preflight", "{ name: cors, " + ORIGINS
                    + ", allow_methods: \"GET, POST\", allow_headers: content-type, max_age: 600 }",
            "mirror-10pct", "{ name: mirror, cluster: shadow, percent: 10, seed: 1 }",
            "fault-header-abort", "{ name: fault, abort: { header_abort: true } }",
            "fault-0pct", "{ name: fault, delay: { fixed_delay: 1s, percentage: 0 }, abort: { http_status: 503, percentage: 0 } }",
            "fault-on-header", "{ name: fault, abort: { http_status: 503, percentage: 50 }, headers: { x-chaos: \"on\" } }");

    @Param({"none", "headers-literal", "headers-variables", "cors-actual", "cors-preflight", "mirror-10pct",
        "fault-header-abort", "fault-0pct", "fault-on-header"})
    public String filter;

    private StreamFilter built;
    private HttpHeaders requestHeaders;
    private String method;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        requestHeaders = new DefaultHttpHeaders()
                .set("host", "www.shop.example")
                .set("user-agent", "Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/130.0")
                .set("accept", "application/json")
                .set("accept-encoding", "gzip, deflate, br")
                .set("origin", "https://www.shop.example")
                .set("x-forwarded-for", "10.1.2.3")
                .set("x-forwarded-proto", "http")
                .set("x-request-id", "0f6c1c5e7a2b4d9e8c3f1a2b3c4d5e6f");
        method = "GET";
        if (filter.equals("cors-preflight")) {
            method = "OPTIONS";
            requestHeaders.set("access-control-request-method", "POST");
        }
        String entry = FILTERS.get(filter);
        if (entry.isEmpty()) {
            return;
        }
        String yaml = "{ name: bench, port: 0, filters: [ " + entry + " ], route_config: { virtual_hosts: [] } }";
        ExtensionRegistry registry = ExtensionRegistry.defaults();
        StreamFilterConfig config = ConfigLoader.listener(new ObjectMapper(new YAMLFactory()).readTree(yaml),
                "listeners[0]", registry).filters().get(0);
        built = registry.find(StreamFilterConfig.class, config.kind(), StreamFilterFactory.class).orElseThrow()
                .create(config, new FilterScope("bench", null, new SimpleMeterRegistry()));
    }

    /** One request through the filter: its head, its response's head, its end. */
    @Benchmark
    public HttpBenchContext request() {
        HttpBenchContext context = new HttpBenchContext(method, requestHeaders.copy());
        if (built != null) {
            built.onRequest(context);
            built.onResponse(context, context);
            built.onComplete(context, 200);
        }
        return context;
    }
}
