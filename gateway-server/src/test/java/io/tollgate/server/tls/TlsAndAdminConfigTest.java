package io.tollgate.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.AdminConfig;
import io.tollgate.core.config.ClientAuthConfig;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.TlsConfig;
import io.tollgate.core.config.UpstreamTlsConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.server.testing.TestPki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The new TLS fields of listeners and clusters, and the admin token, as the loader reads and checks them. */
class TlsAndAdminConfigTest {

    @Test
    void listenerTlsReadsSniCertificatesClientAuthAndReloadSettings() {
        TlsConfig tls = listenerTls("sni_certificates: [ { server_names: [A.Test, '*.b.test'], cert_chain_file: "
                + TestPki.cert("a.test") + ", private_key_file: " + TestPki.key("a.test") + " } ],"
                + " client_auth: { mode: optional, ca_file: " + TestPki.cert("ca") + ", allowed_sans: [spiffe://x/y] },"
                + " reload_interval: 1s, session_timeout: 60s");

        assertThat(tls.sniCertificates()).singleElement()
                .satisfies(s -> assertThat(s.serverNames()).containsExactly("a.test", "*.b.test"));
        assertThat(tls.clientAuth()).contains(new ClientAuthConfig(false, TestPki.cert("ca"), List.of("spiffe://x/y")));
        assertThat(tls.reloadInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(tls.sessionTimeout()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void listenerTlsDefaults() {
        TlsConfig tls = listenerTls("");

        assertThat(tls.sniCertificates()).isEmpty();
        assertThat(tls.clientAuth()).isEmpty();
        assertThat(tls.reloadInterval()).isEqualTo(TlsConfig.DEFAULT_RELOAD_INTERVAL);
        assertThat(tls.sessionTimeout()).isEqualTo(TlsConfig.DEFAULT_SESSION_TIMEOUT);
    }

    @Test
    void badSniEntriesAreNamedWithTheirPath() {
        String entry = "{ server_names: [a.test], cert_chain_file: " + TestPki.cert("a.test") + ", private_key_file: "
                + TestPki.key("a.test") + " }";
        assertThatThrownBy(() -> listenerTls("sni_certificates: [" + entry + ", " + entry + "]"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("listeners[0].tls.sni_certificates[1]: server name 'a.test' is already listed");
        assertThatThrownBy(() -> listenerTls("sni_certificates: [ { server_names: ['bad name'], cert_chain_file: "
                + TestPki.cert("a.test") + ", private_key_file: " + TestPki.key("a.test") + " } ]"))
                .hasMessageStartingWith("listeners[0].tls.sni_certificates[0].server_names[0]: 'bad name' is not a server name");
        assertThatThrownBy(() -> listenerTls("client_auth: { mode: maybe, ca_file: " + TestPki.cert("ca") + " }"))
                .hasMessageStartingWith("listeners[0].tls.client_auth.mode: 'maybe' (expected required or optional)");
    }

    @Test
    void clusterTlsVerifiesByDefaultAndOffersItsProtocolByAlpn() {
        UpstreamTlsConfig tls = clusterTls("protocol: h2", "sni: api.example.com, ca_file: " + TestPki.cert("ca"));

        assertThat(tls.verifies()).isTrue();
        assertThat(tls.sni()).contains("api.example.com");
        assertThat(tls.alpn()).containsExactly("h2");
        assertThat(clusterTls("", "insecure_skip_verify: true").verifies()).isFalse();
        assertThat(clusterTls("", "insecure_skip_verify: true").alpn()).containsExactly("http/1.1");
    }

    @Test
    void clusterTlsNeedsACaOrAnExplicitInsecureFlag() {
        assertThatThrownBy(() -> clusterTls("", "sni: a.test"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("clusters[0].tls: needs ca_file to verify the hosts' certificates,"
                        + " or insecure_skip_verify: true");
        assertThatThrownBy(() -> clusterTls("", "ca_file: " + TestPki.cert("ca") + ", insecure_skip_verify: true"))
                .hasMessageStartingWith("clusters[0].tls: ca_file and insecure_skip_verify: true exclude each other");
        assertThatThrownBy(() -> clusterTls("", "insecure_skip_verify: true, cert_chain_file: " + TestPki.cert("client")))
                .hasMessageStartingWith("clusters[0].tls.private_key_file");
    }

    @Test
    void adminOnLoopbackNeedsNoToken() {
        assertThat(admin("{ address: 127.0.0.1, port: 0 }")).isEqualTo(new AdminConfig("127.0.0.1", 0));
    }

    @Test
    void adminElsewhereWithoutATokenIsRefused() {
        assertThatThrownBy(() -> admin("{ address: 0.0.0.0, port: 9901 }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("admin.address: '0.0.0.0' is not a loopback address: set admin.token or"
                        + " admin.token_file");
    }

    @Test
    void adminTokenComesInlineOrFromAFileAndIsNeverPrinted(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("token"), "from-a-file-0123456789\n");

        AdminConfig inline = admin("{ address: 0.0.0.0, token: inline-token-0123456789 }");
        AdminConfig fromFile = admin("{ address: 0.0.0.0, token_file: " + file + " }");

        assertThat(inline.token()).contains("inline-token-0123456789");
        assertThat(fromFile.token()).isEqualTo(Optional.of("from-a-file-0123456789"));
        assertThat(inline.toString()).doesNotContain("inline-token").contains("<set>");
        assertThatThrownBy(() -> admin("{ address: 0.0.0.0, token: short }"))
                .hasMessageStartingWith("admin.token: the token must be at least 16 printable ASCII characters");
    }

    private static TlsConfig listenerTls(String extra) {
        String yaml = """
                listeners:
                  - name: tls
                    protocols: [http1, h2c]
                    tls: { cert_chain_file: %s, private_key_file: %s %s }
                    route_config: { virtual_hosts: [ { name: all, domains: ['*'], routes: [
                      { match: { prefix: / }, direct_response: { status: 200 } } ] } ] }
                clusters:
                  - name: c
                    endpoints: [{ address: 127.0.0.1, port: 9 }]
                """.formatted(TestPki.cert("localhost"), TestPki.key("localhost"), extra.isEmpty() ? "" : ", " + extra);
        return ConfigLoader.parse(yaml).listeners().get(0).tls().orElseThrow();
    }

    private static UpstreamTlsConfig clusterTls(String clusterFields, String tlsFields) {
        String yaml = """
                listeners:
                  - name: http
                    route_config: { virtual_hosts: [ { name: all, domains: ['*'], routes: [
                      { match: { prefix: / }, route: { cluster: c } } ] } ] }
                clusters:
                  - name: c
                    %s
                    tls: { %s }
                    endpoints: [{ address: 127.0.0.1, port: 9 }]
                """.formatted(clusterFields, tlsFields);
        return ConfigLoader.parse(yaml).clusters().get(0).tls().orElseThrow();
    }

    private static AdminConfig admin(String block) {
        String yaml = "admin: " + block + "\n" + """
                listeners:
                  - name: http
                    route_config: { virtual_hosts: [ { name: all, domains: ['*'], routes: [
                      { match: { prefix: / }, direct_response: { status: 200 } } ] } ] }
                clusters:
                  - name: c
                    endpoints: [{ address: 127.0.0.1, port: 9 }]
                """;
        return ConfigLoader.parse(yaml).admin();
    }
}
