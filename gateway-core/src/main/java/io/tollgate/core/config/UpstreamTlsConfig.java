package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
 * @param subjectAltNames when not empty, the server's certificate must carry one of these subject
 *     alternative names (URI or DNS, compared exactly: an Istio workload's SPIFFE identity), which
 *     replaces the check of the SNI or address
 * @param matchLabels TLS is spoken only to the hosts whose labels include all of these (an
 *     Istio {@code transport_socket_matches} entry: {@code tlsMode: istio}), the others in
 *     cleartext; empty: to every host
 */
public record UpstreamTlsConfig(Optional<String> sni, Optional<Path> caFile,
        Optional<CertificateFiles> clientCertificate, List<String> alpn, List<String> subjectAltNames,
        Map<String, String> matchLabels) {

    public UpstreamTlsConfig {
        requireNonNull(sni, "sni");
        requireNonNull(caFile, "caFile");
        requireNonNull(clientCertificate, "clientCertificate");
        alpn = List.copyOf(alpn);
        subjectAltNames = List.copyOf(subjectAltNames);
        matchLabels = Map.copyOf(matchLabels);
        if (!subjectAltNames.isEmpty() && caFile.isEmpty()) {
            throw new InvalidFieldException("subject_alt_names", "needs ca_file (an unverified certificate's names"
                    + " prove nothing)");
        }
    }

    /** TLS to every host, its certificate checked against the SNI or the address. */
    public UpstreamTlsConfig(Optional<String> sni, Optional<Path> caFile, Optional<CertificateFiles> clientCertificate,
            List<String> alpn) {
        this(sni, caFile, clientCertificate, alpn, List.of(), Map.of());
    }

    /** Whether a host with {@code labels} is spoken to in TLS ({@link #matchLabels}). */
    public boolean appliesTo(Map<String, String> labels) {
        for (Map.Entry<String, String> label : matchLabels.entrySet()) {
            if (!label.getValue().equals(labels.get(label.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** Whether the server's certificate is verified. */
    public boolean verifies() {
        return caFile.isPresent();
    }
}
