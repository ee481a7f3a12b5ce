package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * How a listener terminates TLS: the certificates it presents (a default one, others chosen by
 * the client's SNI), the application protocols it offers by ALPN, whether it asks for client
 * certificates, how long a client may take to finish the handshake, how often the certificate
 * files are checked for changes and how long a session may be resumed.
 *
 * @param certChainFile PEM file holding the default certificate first, then any intermediates;
 *     presented when the client sends no SNI or one no {@code sniCertificates} entry names
 * @param privateKeyFile PEM file holding the default certificate's unencrypted PKCS#8 private key
 * @param alpn the ALPN names offered, most preferred first ({@link #H2}, {@link #HTTP_1_1}); empty
 *     offers none, and the protocol is then detected from the decrypted bytes as on a plaintext
 *     listener
 * @param handshakeTimeout a connection that has not finished its handshake after this long is closed
 * @param sniCertificates certificates chosen by the client's SNI, first match wins
 * @param clientAuth mutual TLS, if the listener asks clients for certificates
 * @param reloadInterval how often the certificate, key and CA files are checked for a new
 *     modification time; changed files are read and used by new handshakes
 * @param sessionTimeout how long a TLS session may be resumed (by ticket or session id)
 */
public record TlsConfig(Path certChainFile, Path privateKeyFile, List<String> alpn, Duration handshakeTimeout,
        List<SniCertificateConfig> sniCertificates, Optional<ClientAuthConfig> clientAuth, Duration reloadInterval,
        Duration sessionTimeout) {

    /** The ALPN name of HTTP/2 over TLS, served by the listener's {@code h2c} protocol. */
    public static final String H2 = "h2";
    /** The ALPN name of HTTP/1.1, served by the listener's {@code http1} protocol. */
    public static final String HTTP_1_1 = "http/1.1";
    /** Used when the listener says nothing. */
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);
    /** Certificate files are looked at this often unless the listener says otherwise. */
    public static final Duration DEFAULT_RELOAD_INTERVAL = Duration.ofSeconds(5);
    /** OpenSSL's and Envoy's default session lifetime. */
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(300);

    public TlsConfig {
        requireNonNull(certChainFile, "certChainFile");
        requireNonNull(privateKeyFile, "privateKeyFile");
        alpn = List.copyOf(alpn);
        sniCertificates = List.copyOf(sniCertificates);
        requireNonNull(clientAuth, "clientAuth");
        requirePositive("handshakeTimeout", handshakeTimeout);
        requirePositive("reloadInterval", reloadInterval);
        requirePositive("sessionTimeout", sessionTimeout);
    }

    /** One certificate, no client certificates, files checked and sessions kept for the defaults. */
    public TlsConfig(Path certChainFile, Path privateKeyFile, List<String> alpn, Duration handshakeTimeout) {
        this(certChainFile, privateKeyFile, alpn, handshakeTimeout, List.of(), Optional.empty(),
                DEFAULT_RELOAD_INTERVAL, DEFAULT_SESSION_TIMEOUT);
    }

    /** The default certificate's files. */
    public CertificateFiles certificate() {
        return new CertificateFiles(certChainFile, privateKeyFile);
    }

    private static void requirePositive(String name, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
        }
    }
}
