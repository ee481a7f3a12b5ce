package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How a listener terminates TLS: the certificate it presents, the application protocols it offers
 * by ALPN, and how long a client may take to finish the handshake.
 *
 * @param certChainFile PEM file holding the server certificate first, then any intermediates
 * @param privateKeyFile PEM file holding the certificate's unencrypted PKCS#8 private key
 * @param alpn the ALPN names offered, most preferred first ({@link #H2}, {@link #HTTP_1_1}); empty
 *     offers none, and the protocol is then detected from the decrypted bytes as on a plaintext
 *     listener
 * @param handshakeTimeout a connection that has not finished its handshake after this long is closed
 */
public record TlsConfig(Path certChainFile, Path privateKeyFile, List<String> alpn, Duration handshakeTimeout) {

    /** The ALPN name of HTTP/2 over TLS, served by the listener's {@code h2c} protocol. */
    public static final String H2 = "h2";
    /** The ALPN name of HTTP/1.1, served by the listener's {@code http1} protocol. */
    public static final String HTTP_1_1 = "http/1.1";
    /** Used when the listener says nothing. */
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

    public TlsConfig {
        requireNonNull(certChainFile, "certChainFile");
        requireNonNull(privateKeyFile, "privateKeyFile");
        alpn = List.copyOf(alpn);
        if (handshakeTimeout.isNegative() || handshakeTimeout.isZero()) {
            throw new IllegalArgumentException("handshakeTimeout: " + handshakeTimeout + " (expected: > 0)");
        }
    }
}
