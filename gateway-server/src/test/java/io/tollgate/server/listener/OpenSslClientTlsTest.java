package io.tollgate.server.listener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tollgate.server.testing.TestGateway;
import io.tollgate.server.testing.TestPki;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TLS listener seen by {@code openssl s_client}: the certificate chosen by SNI and the protocol by
 * ALPN, and sessions resumed (TLS 1.3 tickets and TLS 1.2 tickets) from a saved session. Skipped,
 * with a message saying so, where the {@code openssl} command is not installed.
 */
class OpenSslClientTlsTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: https
                protocols: [http1, h2c]
                tls:
                  cert_chain_file: ${CERT}
                  private_key_file: ${KEY}
                  sni_certificates: [ { server_names: [a.test], cert_chain_file: ${A_CERT}, private_key_file: ${A_KEY} } ]
                route_config: { virtual_hosts: [ { name: all, domains: ['*'], routes: [
                  { match: { prefix: / }, direct_response: { status: 200, body: served } } ] } ] }
            clusters:
              - name: unused
                endpoints: [{ address: 127.0.0.1, port: 9 }]
            """;

    @TempDir
    static Path dir;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(opensslInstalled(), "openssl is not installed: the s_client tests are skipped");
        gateway = TestGateway.start(CONFIG, Map.of("CERT", TestPki.cert("localhost"), "KEY", TestPki.key("localhost"),
                "A_CERT", TestPki.cert("a.test"), "A_KEY", TestPki.key("a.test")));
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void sniChoosesTheCertificateAndAlpnTheProtocol() throws Exception {
        String output = sClient("-servername", "a.test", "-alpn", "h2,http/1.1");

        assertThat(output).contains("subject=CN = a.test", "ALPN protocol: h2", "Verify return code: 0 (ok)");
    }

    @Test
    void tls13SessionIsResumedFromItsTicket() throws Exception {
        resumes("-tls1_3", "TLSv1.3");
    }

    @Test
    void tls12SessionIsResumed() throws Exception {
        resumes("-tls1_2", "TLSv1.2");
    }

    private static void resumes(String version, String name) throws Exception {
        Path session = dir.resolve("session-" + name);
        assertThat(sClient(version, "-sess_out", session.toString())).contains("New, " + name);

        assertThat(sClient(version, "-sess_in", session.toString())).contains("Reused, " + name);
    }

    /**
     * Runs s_client against the listener with one HTTP/1.1 request on its stdin, which stays open
     * until the response's status line came (the session tickets come before it) or s_client
     * ended (a connection that negotiated h2 is closed by the gateway), at most 10 s.
     */
    private static String sClient(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-connect",
                "127.0.0.1:" + gateway.port("https"), "-CAfile", TestPki.cert("ca").toString()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        StringBuffer output = new StringBuffer();
        CountDownLatch answered = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    output.append(line).append('\n');
                    if (line.startsWith("HTTP/1.1 ")) {
                        answered.countDown();
                    }
                }
            } catch (IOException e) {
                // s_client is gone; what it printed is in the output
            }
            answered.countDown();
        }, "s_client output");
        reader.start();
        process.getOutputStream().write("GET / HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        process.getOutputStream().flush();
        answered.await(10, TimeUnit.SECONDS);
        process.getOutputStream().close();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("openssl s_client did not exit: " + command);
        }
        reader.join(TimeUnit.SECONDS.toMillis(5));
        return output.toString();
    }

    private static boolean opensslInstalled() {
        try {
            return new ProcessBuilder("openssl", "version").redirectErrorStream(true).start().waitFor(5, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
