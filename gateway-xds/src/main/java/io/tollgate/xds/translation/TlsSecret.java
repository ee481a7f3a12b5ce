package io.tollgate.xds.translation;

/**
 * An SDS {@code Secret} as received: a certificate chain with its private key, or the CA
 * certificates peers are verified against; PEM text, checked when it arrived.
 *
 * @param certificateChain PEM certificates, the server's or client's own first; empty for a validation context
 * @param privateKey the PEM PKCS#8 key of the first certificate; empty for a validation context
 * @param trustedCa PEM CA certificates; empty for a certificate
 */
record TlsSecret(String certificateChain, String privateKey, String trustedCa) {

    /** Whether this secret is a certificate and key ({@code tls_certificate}). */
    boolean isCertificate() {
        return !certificateChain.isEmpty();
    }

    /** Whether this secret holds CA certificates ({@code validation_context}). */
    boolean isValidationContext() {
        return !trustedCa.isEmpty();
    }
}
