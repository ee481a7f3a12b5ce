package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A certificate a TLS listener presents instead of its default one to clients whose SNI names
 * one of {@code serverNames}, so that one port can serve several domains.
 *
 * @param serverNames exact names ({@code api.example.com}) or one-level wildcards
 *     ({@code *.example.com}), lower case
 * @param certificate the certificate chain and key presented to those clients
 */
public record SniCertificateConfig(List<String> serverNames, CertificateFiles certificate) {

    public SniCertificateConfig {
        serverNames = List.copyOf(serverNames);
        if (serverNames.isEmpty()) {
            throw new IllegalArgumentException("serverNames: [] (expected at least one name)");
        }
        requireNonNull(certificate, "certificate");
    }
}
