package io.tollgate.server.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code rate_limit} filter against the real thing: Envoy's own rate limit service
 * ({@code envoyproxy/ratelimit}, Go) backed by a real Redis ({@code redis-server} from Debian),
 * both started by the test on loopback ports. Each user may make two requests an hour under the
 * domain's configuration file; the third of one user is refused with 429 and
 * {@code x-envoy-ratelimited}, and another user still passes. Skipped, saying so, when the
 * {@code ratelimit} binary (the {@code RATELIMIT} environment variable, else {@code ratelimit} on
 * the {@code PATH}) or {@code redis-server} is not there.
 */
class EnvoyRateLimitServiceTest {

    private static final String SERVICE_CONFIG = """
            domain: edge
            descriptors:
              - key: generic_key
                value: real
                descriptors:
                  - key: user
                    rate_limit: { unit: hour, requests_per_unit: 2 }
            """;
    private static final String CONFIG = """
            listeners:
              - name: http
                protocols: [http1, h2c]
                filters:
                  - name: rate_limit
                    domain: edge
                    grpc_service: { target: "127.0.0.1:${RLS}", timeout: 2s }
                    rate_limits:
                      - actions:
                          - generic_key: { descriptor_value: real }
                          - request_headers: { header_name: x-user, descriptor_key: user }
                route_config:
                  virtual_hosts: [{ name: all, domains: ["*"], routes: [{ match: { prefix: / }, route: { cluster: http } }] }]
            clusters:
              - name: http
                endpoints: [{ address: 127.0.0.1, port: ${HTTP} }]
            """;
    private static final Duration LIMIT = Duration.ofSeconds(20);

    @TempDir
    static Path dir;
    private static final StartedResources started = new StartedResources();
    private static final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        Optional<Path> ratelimit = Optional.ofNullable(System.getenv("RATELIMIT")).map(Path::of)
                .filter(Files::isExecutable).or(() -> onPath("ratelimit"));
        Optional<Path> redis = onPath("redis-server");
        assumeTrue(ratelimit.isPresent(), "Envoy's ratelimit service is not installed (build it from"
                + " github.com/envoyproxy/ratelimit, then set RATELIMIT to the binary or put it on the PATH)");
        assumeTrue(redis.isPresent(), "redis-server is not installed (apt-get install redis-server)");
        try {
            int redisPort = FreePort.pick();
            process(new ProcessBuilder(redis.get().toString(), "--port", Integer.toString(redisPort), "--bind",
                    "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString()), "redis");
            Path runtime = dir.resolve("runtime");
            Files.createDirectories(runtime.resolve("ratelimit/config"));
            Files.writeString(runtime.resolve("ratelimit/config/edge.yaml"), SERVICE_CONFIG);
            int grpcPort = FreePort.pick();
            int httpPort = FreePort.pick();
            ProcessBuilder service = new ProcessBuilder(ratelimit.get().toString());
            service.environment().putAll(Map.ofEntries(
                    Map.entry("USE_STATSD", "false"), Map.entry("LOG_LEVEL", "debug"),
                    Map.entry("REDIS_SOCKET_TYPE", "tcp"), Map.entry("REDIS_URL", "127.0.0.1:" + redisPort),
                    Map.entry("HOST", "127.0.0.1"), Map.entry("PORT", Integer.toString(httpPort)),
                    Map.entry("GRPC_HOST", "127.0.0.1"), Map.entry("GRPC_PORT", Integer.toString(grpcPort)),
                    Map.entry("DEBUG_HOST", "127.0.0.1"), Map.entry("DEBUG_PORT", Integer.toString(FreePort.pick())),
                    Map.entry("RUNTIME_ROOT", runtime.toString()), Map.entry("RUNTIME_SUBDIRECTORY", "ratelimit"),
                    Map.entry("RUNTIME_WATCH_ROOT", "false")));
            process(service, "ratelimit");
            HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/healthcheck"))
                    .timeout(Duration.ofSeconds(2)).build();
            Await.until("the ratelimit service reports healthy (Redis reached)", LIMIT, () -> {
                try {
                    return client.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                } catch (IOException e) {
                    return false;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            });
            HttpUpstream upstream = started.add(new HttpUpstream("http"));
            gateway = started.add(TestGateway.start(CONFIG, Map.of("RLS", grpcPort, "HTTP", upstream.port())));
        } catch (Exception | Error e) {
            started.close();
            throw e;
        }
    }

    @AfterAll
    static void stop() {
        started.close();
    }

    @Test
    void eachUserGetsTheServicesTwoRequestsAnHourThenIsRefusedWhileOthersPass() throws Exception {
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> passed = get("erin");
            assertThat(passed.statusCode()).as("request " + i).isEqualTo(200);
            assertThat(passed.body()).contains("h-x-user: erin");
        }
        HttpResponse<String> limited = get("erin");
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("x-envoy-ratelimited")).hasValue("true");
        assertThat(limited.body()).doesNotContain("target:");

        assertThat(get("frank").statusCode()).as("another user's own limit").isEqualTo(200);
        assertThat(get(null).statusCode()).as("no user: no descriptor, not limited").isEqualTo(200);
        assertThat(gateway.count("tollgate.filter.rate_limit.over_limit", "listener", "http", "route", ""))
                .isEqualTo(1);
        assertThat(gateway.count("tollgate.filter.rate_limit.ok", "listener", "http", "route", "")).isEqualTo(3);
    }

    private static HttpResponse<String> get(String user) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(gateway.uri("http", "/api")).timeout(LIMIT);
        if (user != null) {
            request.header("x-user", user);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Starts {@code builder}'s process with its output in a log file of the test's directory; ended with the class. */
    private static void process(ProcessBuilder builder, String name) throws IOException {
        Process process = builder.redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile()).start();
        started.add(() -> {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        });
    }

    private static Optional<Path> onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String entry : path.split(File.pathSeparator)) {
            Path candidate = Path.of(entry, program);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
