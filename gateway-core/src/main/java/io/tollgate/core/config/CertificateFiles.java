package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * A certificate chain and its private key, as PEM files read again whenever they change.
 *
 * @param certChainFile the certificate first, then any intermediates
 * @param privateKeyFile the certificate's unencrypted PKCS#8 private key
 */
public record CertificateFiles(Path certChainFile, Path privateKeyFile) {

    public CertificateFiles {
        requireNonNull(certChainFile, "certChainFile");
        requireNonNull(privateKeyFile, "privateKeyFile");
    }
}
