package io.tollgate.server.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The self-signed certificate of the TLS tests ({@code CN=localhost}, SAN {@code DNS:localhost},
 * {@code IP:127.0.0.1}, valid until 2126), made once with
 * {@code openssl req -x509 -newkey rsa:2048 -nodes -days 36500 -subj /CN=localhost
 * -addext subjectAltName=DNS:localhost,IP:127.0.0.1}, and clients that trust it.
 */
public final class TestCertificate {

    private TestCertificate() {
    }

    /** The PEM file of the certificate, for a listener's {@code cert_chain_file}. */
    public static Path certChainFile() {
        return TestPki.resource("/tls/localhost.crt");
    }

    /** The PEM file of its PKCS#8 private key, for a listener's {@code private_key_file}. */
    public static Path privateKeyFile() {
        return TestPki.resource("/tls/localhost.key");
    }

    /** A listener's {@code tls} block presenting this certificate, with the given extra fields (may be empty). */
    public static String tlsBlock(String extraFields) {
        return "tls: { cert_chain_file: " + certChainFile() + ", private_key_file: " + privateKeyFile()
                + (extraFields.isEmpty() ? "" : ", " + extraFields) + " }";
    }

    /** A client TLS context that trusts this certificate and nothing else. */
    public static SSLContext clientContext() {
        try (InputStream pem = TestCertificate.class.getResourceAsStream("/tls/localhost.crt")) {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            trusted.setCertificateEntry("localhost", CertificateFactory.getInstance("X.509").generateCertificate(pem));
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot build a client context trusting the test certificate", e);
        }
    }
}
