package io.tollgate.core.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and checks PEM certificate and key files, so that a missing file, a key in a format the
 * TLS engine cannot read, or a key that does not belong to the certificate is found when the
 * configuration is loaded (and reported with the field that names the file) instead of failing
 * when a listener binds. Each problem is a {@link PemFileException} whose message names the file.
 */
public final class PemFiles {

    private static final Pattern PKCS8_KEY = Pattern.compile(
            "-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");
    private static final String CONVERT_HINT = "openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8";

    private PemFiles() {
    }

    /** Returns the certificates of a PEM chain file, the server's own first. */
    public static List<Certificate> certificateChain(Path file) {
        byte[] bytes = read(file);
        try (InputStream in = new ByteArrayInputStream(bytes)) {
            List<Certificate> chain = List.copyOf(CertificateFactory.getInstance("X.509").generateCertificates(in));
            if (chain.isEmpty()) {
                throw new PemFileException(file + " holds no certificate (expected PEM blocks -----BEGIN CERTIFICATE-----)");
            }
            return chain;
        } catch (CertificateException | IOException e) {
            throw new PemFileException(file + " holds no readable certificate (expected PEM blocks -----BEGIN CERTIFICATE-----): "
                    + e.getMessage());
        }
    }

    /** Checks that a PEM file holds an unencrypted PKCS#8 RSA or EC key that belongs to {@code certificate}. */
    public static void privateKeyOf(Path file, Certificate certificate) {
        String text = new String(read(file), StandardCharsets.US_ASCII);
        Matcher pem = PKCS8_KEY.matcher(text);
        if (!pem.find()) {
            throw new PemFileException(file + " holds no unencrypted PKCS#8 key (expected a PEM block -----BEGIN PRIVATE KEY-----;"
                    + " convert a PKCS#1 or encrypted key with: " + CONVERT_HINT + ")");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(pem.group(1));
        } catch (IllegalArgumentException e) {
            throw new PemFileException(file + ": the key is not valid base64: " + e.getMessage());
        }
        PrivateKey key = decode(der);
        if (key == null) {
            throw new PemFileException(file + ": the key is neither an RSA nor an EC key (expected one of [RSA, EC])");
        }
        if (!signsFor(key, certificate)) {
            throw new PemFileException(file + ": the key does not belong to the first certificate of cert_chain_file"
                    + " (expected the certificate's own private key)");
        }
    }

    private static byte[] read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new PemFileException(file + ": no such file (expected a PEM file; relative paths start at the working directory "
                    + Path.of("").toAbsolutePath() + ")");
        }
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new PemFileException(file + ": cannot be read: " + e);
        }
    }

    private static PrivateKey decode(byte[] der) {
        for (String algorithm : List.of("RSA", "EC")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // not this algorithm: try the next
            }
        }
        return null;
    }

    /** Whether a signature made with {@code key} verifies with the certificate's public key. */
    private static boolean signsFor(PrivateKey key, Certificate certificate) {
        String algorithm = key.getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
        byte[] challenge = "tollgate".getBytes(StandardCharsets.US_ASCII);
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(challenge);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate);
            verifier.update(challenge);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
