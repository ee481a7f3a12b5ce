package io.tollgate.server.listener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.TlsConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.TestCertificate;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A listener's {@code tls} block as the configuration loader reads and checks it. */
class TlsConfigTest {

    @Test
    void alpnDefaultsToTheServedHttpProtocolsH2First() {
        TlsConfig tls = load("[http1, bolt, h2c]", TestCertificate.tlsBlock(""));

        assertThat(tls.alpn()).containsExactly(TlsConfig.H2, TlsConfig.HTTP_1_1);
        assertThat(tls.handshakeTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(tls.certChainFile()).isEqualTo(TestCertificate.certChainFile());
    }

    @Test
    void boltOnlyListenerOffersNoAlpn() {
        assertThat(load("[bolt]", TestCertificate.tlsBlock("")).alpn()).isEmpty();
    }

    @Test
    void explicitAlpnAndHandshakeTimeoutAreKeptInOrder() {
        TlsConfig tls = load("[http1, h2c]", TestCertificate.tlsBlock("alpn: [http/1.1, h2], handshake_timeout: 2s"));

        assertThat(tls.alpn()).containsExactly(TlsConfig.HTTP_1_1, TlsConfig.H2);
        assertThat(tls.handshakeTimeout()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void missingCertificateFileIsNamedWithItsField() {
        String block = "tls: { cert_chain_file: /nonexistent/server.crt, private_key_file: "
                + TestCertificate.privateKeyFile() + " }";

        assertThatThrownBy(() -> load("[http1]", block))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("listeners[0].tls.cert_chain_file: /nonexistent/server.crt: no such file");
    }

    @Test
    void keyFileWithoutAPrivateKeyIsRejected() {
        String block = "tls: { cert_chain_file: " + TestCertificate.certChainFile() + ", private_key_file: "
                + TestCertificate.certChainFile() + " }";

        assertThatThrownBy(() -> load("[http1]", block))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("listeners[0].tls.private_key_file: " + TestCertificate.certChainFile()
                        + " holds no unencrypted PKCS#8 key");
    }

    @Test
    void certificateFileWithoutACertificateIsRejected() {
        Path key = TestCertificate.privateKeyFile();
        String block = "tls: { cert_chain_file: " + key + ", private_key_file: " + key + " }";

        assertThatThrownBy(() -> load("[http1]", block))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("listeners[0].tls.cert_chain_file: " + key + " holds no");
    }

    @Test
    void keyOfAnotherCertificateIsRejected(@TempDir Path dir) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        Path otherKey = dir.resolve("other.key");
        Files.writeString(otherKey, "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(generator.generateKeyPair().getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n", StandardCharsets.US_ASCII);
        String block = "tls: { cert_chain_file: " + TestCertificate.certChainFile() + ", private_key_file: " + otherKey + " }";

        assertThatThrownBy(() -> load("[http1]", block))
                .isInstanceOf(ConfigException.class)
                .hasMessage("listeners[0].tls.private_key_file: " + otherKey + ": the key does not belong to the first"
                        + " certificate of cert_chain_file (expected the certificate's own private key)");
    }

    @Test
    void alpnNameTheListenerDoesNotServeIsRejected() {
        assertThatThrownBy(() -> load("[http1]", TestCertificate.tlsBlock("alpn: [h2]")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("listeners[0].tls.alpn[0]: 'h2' is not served by protocols [http1]"
                        + " (expected one of [http/1.1]: h2 needs h2c, http/1.1 needs http1)");
    }

    @Test
    void zeroHandshakeTimeoutIsRejected() {
        assertThatThrownBy(() -> load("[http1]", TestCertificate.tlsBlock("handshake_timeout: 0s")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("listeners[0].tls.handshake_timeout: must be positive");
    }

    private static TlsConfig load(String protocols, String tlsBlock) {
        String yaml = GatewayYaml.gateway(1, "name: tls\nprotocols: " + protocols + "\n" + tlsBlock + "\n", """
                - { match: { prefix: / }, direct_response: { status: 200 } }
                """, "");
        List<TlsConfig> tls = ConfigLoader.parse(yaml).listeners().stream().map(l -> l.tls().orElseThrow()).toList();
        return tls.get(0);
    }
}
