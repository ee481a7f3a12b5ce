package io.tollgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The command line: validate's exit codes and messages, version and help. */
class MainTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = new CommandLine(new Main());
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    @Test
    void validateAcceptsTheShippedExamples() {
        for (String example : new String[] {"minimal.yaml", "http-proxy.yaml", "tls.yaml", "filters.yaml",
            "tracing-zipkin.yaml"}) {
            assertThat(run("validate", "-c", Path.of("..", "docs", "examples", example).toString()))
                    .as(example).isZero();
        }
        assertThat(out.toString()).contains("valid");
    }

    @Test
    void validateNamesTheBadFieldAndExitsNonZero(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, """
                listeners:
                  - name: http
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes:
                            - { match: { prefix: / }, route: { cluster: a } }
                            - { match: { prefix: nope }, route: { cluster: a } }
                clusters:
                  - name: a
                    endpoints: [ { address: 127.0.0.1, port: 1 } ]
                """);
        assertThat(run("validate", "-c", file.toString())).isEqualTo(1);
        assertThat(err.toString())
                .contains("listeners[0].route_config.virtual_hosts[0].routes[1].match.prefix: must start with '/'");
    }

    @Test
    void validateListsEveryMistakeOfTheFileInItsOrderWithTheSameExitStatus(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, """
                listeners:
                  - name: http
                    http: { idle_timeout: 5 }
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes:
                            - { match: { prefix: nope }, route: { cluster: a } }
                            - { match: { prefix: / }, route: { cluster: b } }
                clusters:
                  - name: a
                    endpoints: [ { address: 127.0.0.1, port: 0 } ]
                drain: { timeout: 0s }
                """);

        assertThat(run("validate", "-c", file.toString())).isEqualTo(1);

        assertThat(err.toString().lines()).containsExactly(
                "listeners[0].http.idle_timeout: '5' is not a duration (expected an integer of at most 9 digits and a"
                        + " unit ms, s, m or h, e.g. 250ms, 15s, 2m, 1h)",
                "listeners[0].route_config.virtual_hosts[0].routes[0].match.prefix: must start with '/' (was 'nope')",
                "listeners[0].route_config.virtual_hosts[0].routes[1].route.cluster: unknown cluster 'b'",
                "clusters[0].endpoints[0].port: 0 (expected: 1..65535)",
                "drain.timeout: must be positive");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void validateReportsAMissingFile(@TempDir Path dir) {
        assertThat(run("validate", "-c", dir.resolve("missing.yaml").toString())).isEqualTo(1);
        assertThat(err.toString()).contains("missing.yaml");
    }

    @Test
    void versionAndHelpPrintAndSucceed() {
        assertThat(run("version")).isZero();
        assertThat(out.toString()).startsWith("tollgate ");
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("run", "validate", "version");
    }

    @Test
    void runHelpNamesTheDefaultListenersThatExist() {
        assertThat(run("run", "--help")).isZero();
        assertThat(out.toString()).contains("8080", "12200", "20880", "Dubbo", "9901");
    }
}
