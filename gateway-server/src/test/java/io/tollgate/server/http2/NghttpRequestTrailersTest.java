package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * nghttp2's client ({@code nghttp}, Debian package {@code nghttp2-client}) sending a body and a
 * trailer field, several requests on one connection, over h2c and over TLS: each request is
 * answered and its trailer reaches the upstream, HTTP/2 or HTTP/1.1. The report of issue 21 was
 * this command ending with GOAWAY STREAM_CLOSED. Skipped when {@code nghttp} is not installed.
 */
class NghttpRequestTrailersTest {

    private static TrailersGateway gateway;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(nghttp() != null, "nghttp not installed (Debian: apt-get install nghttp2-client); skipping");
        gateway = new TrailersGateway();
    }

    @AfterAll
    static void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2c", "h2"})
    void nghttpRequestsWithATrailerAreAnsweredAndTheirTrailersForwarded(String listener) throws Exception {
        Path body = Files.writeString(dir.resolve("body.txt"), "hello from nghttp\n");
        String base = (listener.equals("h2") ? "https" : "http") + "://127.0.0.1:" + gateway.port(listener);

        String out = run("--trailer", "x-t: 1", "-d", body.toString(),
                base + "/h2/one", base + "/h1/two", base + "/h2/three");

        assertThat(out).contains("path: /h2/one\n").contains("path: /h2/three\n");
        assertThat(out.split("t-x-t: 1\n", -1)).as("the trailer at both HTTP/2 requests").hasSize(3);
        assertThat(out.split("body-bytes: 18\n", -1)).hasSize(3);
        assertThat(out.toLowerCase()).contains("post /h1/two http/1.1\r\n")
                .contains("\r\ntransfer-encoding: chunked\r\n").contains("\r\n0\r\nx-t: 1\r\n\r\n");
    }

    /** Runs nghttp with {@code args}; returns what it printed (the response bodies) once it exited 0. */
    private static String run(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(nghttp());
        command.addAll(List.of(args));
        Path output = Files.createTempFile(dir, "nghttp", ".out");
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
        boolean exited = process.waitFor(20, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
        }
        String out = Files.readString(output, StandardCharsets.ISO_8859_1);
        assertThat(exited).as("nghttp ended in time: " + out).isTrue();
        assertThat(process.exitValue()).as("nghttp's exit status: " + out).isZero();
        return out;
    }

    /** The nghttp executable on the PATH, or null. */
    private static String nghttp() {
        for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File candidate = new File(directory, "nghttp");
            if (candidate.canExecute()) {
                return candidate.getPath();
            }
        }
        return null;
    }
}
