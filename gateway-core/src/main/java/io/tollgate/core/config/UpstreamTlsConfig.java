package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * How a cluster's connections to its hosts are encrypted (Envoy's {@code UpstreamTlsContext}):
 * the server name sent, how the server's certificate is checked, the client certificate
 * presented and the application protocols offered.
 *
 * @param sni the server name sent in the ClientHello, and the name the server's certificate must
 *     carry when it is verified; empty sends none and verifies the host's address instead
 * @param caFile PEM file with the CAs the server's certificate must chain to; empty means the
 *     certificate is NOT verified (the configuration must say {@code insecure_skip_verify: true})
 * @param clientCertificate the certificate chain and key presented when the server asks, if any
 * @param alpn the ALPN names offered, most preferred first; empty offers none
 */
public record UpstreamTlsConfig(Optional<String> sni, Optional<Path> caFile,
        Optional<CertificateFiles> clientCertificate, List<String> alpn) {

    public UpstreamTlsConfig {
        requireNonNull(sni, "sni");
        requireNonNull(caFile, "caFile");
        requireNonNull(clientCertificate, "clientCertificate");
        alpn = List.copyOf(alpn);
    }

    /** Whether the server's certificate is verified. */
    public boolean verifies() {
        return caFile.isPresent();
    }
}
