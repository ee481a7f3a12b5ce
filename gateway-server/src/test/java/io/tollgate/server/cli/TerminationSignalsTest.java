package io.tollgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.HttpUpstream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM sent to a real {@code tollgate run} process (a child JVM on the test class path): the
 * request in flight completes and the process exits as soon as it did, not at the drain timeout;
 * with a stuck upstream the drain ends at its timeout; a second SIGTERM ends the drain at once.
 */
class TerminationSignalsTest {

    private static final String CONFIG = """
            admin: { address: 127.0.0.1, port: ${ADMIN} }
            event_loops: 1
            drain: { timeout: ${DRAIN} }
            listeners:
              - name: http
                port: ${PORT}
                route_config:
                  virtual_hosts:
                    - { name: all, domains: ["*"], routes: [ { match: { prefix: / }, route: { cluster: app, timeout: 120s } } ] }
            clusters:
              - name: app
                endpoints: [ { address: 127.0.0.1, port: ${UPSTREAM} } ]
            """;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final AtomicInteger arrived = new AtomicInteger();
    private final CountDownLatch release = new CountDownLatch(1);
    private HttpUpstream upstream;
    private Process gateway;
    private Path log;
    private int port;
    private int adminPort;

    @BeforeEach
    void startUpstream() throws IOException {
        upstream = new HttpUpstream("app").handle("/held", exchange -> {
            arrived.incrementAndGet();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            HttpUpstream.respond(exchange, 200, "finished".getBytes(StandardCharsets.US_ASCII));
        });
    }

    @AfterEach
    void stop() throws InterruptedException {
        release.countDown();
        if (gateway != null && gateway.isAlive()) {
            gateway.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        upstream.close();
    }

    @Test
    void sigtermLetsTheRequestInFlightFinishThenExitsWithoutWaitingForTheTimeout(@TempDir Path dir) throws Exception {
        start(dir, "60s");
        CompletableFuture<HttpResponse<String>> inFlight = sendHeld();

        gateway.destroy();

        Await.until("/ready answering 503", Duration.ofSeconds(10), () -> readyStatus() == 503);
        assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class);
        assertThat(gateway.isAlive()).as("draining, waiting for the request in flight").isTrue();
        release.countDown();
        HttpResponse<String> response = inFlight.get(10, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("finished");
        assertThat(response.headers().firstValue("connection")).hasValue("close");
        assertThat(gateway.waitFor(20, TimeUnit.SECONDS)).as("exited well before the 60 s drain timeout").isTrue();
        assertThat(gateway.exitValue()).isZero();
        assertThat(Files.readString(log)).contains("drain started by sigterm", "listeners closed",
                "drain (sigterm) done", "1 connections finished their work, 0 closed unfinished", "gateway stopped");
    }

    @Test
    void sigtermWithAStuckUpstreamEndsAtTheDrainTimeout(@TempDir Path dir) throws Exception {
        start(dir, "2s");
        CompletableFuture<HttpResponse<String>> stuck = sendHeld();
        long signalled = System.nanoTime();

        gateway.destroy();

        assertThat(gateway.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(System.nanoTime() - signalled).as("not before the drain timeout")
                .isGreaterThanOrEqualTo(TimeUnit.SECONDS.toNanos(2));
        assertThat(gateway.exitValue()).isZero();
        assertThatThrownBy(() -> stuck.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IOException.class);
        assertThat(Files.readString(log)).contains("drain (sigterm) timed out", "closing the 1 connections still open",
                "0 connections finished their work, 1 closed unfinished");
    }

    @Test
    void aSecondSigtermEndsTheDrainAtOnce(@TempDir Path dir) throws Exception {
        start(dir, "60s");
        CompletableFuture<HttpResponse<String>> stuck = sendHeld();
        gateway.destroy();
        Await.until("the drain under way", Duration.ofSeconds(10), () -> readyStatus() == 503);

        gateway.destroy();

        assertThat(gateway.waitFor(20, TimeUnit.SECONDS)).as("exited well before the 60 s drain timeout").isTrue();
        assertThat(gateway.exitValue()).isZero();
        assertThatThrownBy(() -> stuck.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
        assertThat(Files.readString(log)).contains("received again: ending the drain at once",
                "drain (sigterm) ended at once");
    }

    /** Starts {@code tollgate run -c FILE} in a child JVM and waits until it is ready. */
    private void start(Path dir, String drainTimeout) throws Exception {
        port = FreePort.pick();
        adminPort = FreePort.pick();
        Path config = dir.resolve("gateway.yaml");
        Files.writeString(config, CONFIG.replace("${ADMIN}", Integer.toString(adminPort))
                .replace("${DRAIN}", drainTimeout).replace("${PORT}", Integer.toString(port))
                .replace("${UPSTREAM}", Integer.toString(upstream.port())));
        log = dir.resolve("gateway.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        gateway = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "run", "-c", config.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Await.until("the gateway process ready", Duration.ofSeconds(60), () -> readyStatus() == 200);
    }

    /** Sends a GET the upstream holds until released, and waits until it reached the upstream. */
    private CompletableFuture<HttpResponse<String>> sendHeld() throws InterruptedException {
        CompletableFuture<HttpResponse<String>> response = client.sendAsync(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/held")).build(),
                HttpResponse.BodyHandlers.ofString());
        Await.until("the request in flight at the upstream", Duration.ofSeconds(10), () -> arrived.get() == 1);
        return response;
    }

    /** {@code /ready}'s status, or 0 while the admin API does not answer. */
    private int readyStatus() {
        try {
            return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/ready"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }
}
