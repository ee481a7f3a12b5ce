package io.tollgate.server.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.net.Socket;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The test CA and the certificates it signed, in {@code src/test/resources/tls/pki} (made by its
 * {@code generate.sh}): servers {@code localhost}, {@code localhost-next}, {@code a.test},
 * {@code b.test}; clients {@code client}, {@code stranger}, {@code expired}; and
 * {@code other-ca} with {@code other-client}, which nothing trusts.
 */
public final class TestPki {

    private TestPki() {
    }

    /** The PEM certificate of {@code name}, e.g. {@code ca} or {@code a.test}. */
    public static Path cert(String name) {
        return resource("/tls/pki/" + name + ".crt");
    }

    /** The PEM PKCS#8 key of {@code name}. */
    public static Path key(String name) {
        return resource("/tls/pki/" + name + ".key");
    }

    /**
     * A JDK client context trusting {@code ca} and presenting {@code clientName}'s certificate (null:
     * none) whatever CAs the server names, so that a server's own verification is what is tested.
     */
    public static SSLContext clientContext(String ca, String clientName) {
        try {
            KeyStore trusted = KeyStore.getInstance("PKCS12");
            trusted.load(null, null);
            trusted.setCertificateEntry("ca", certificate(cert(ca)));
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            KeyManagerFactory keys = null;
            if (clientName != null) {
                KeyStore identity = KeyStore.getInstance("PKCS12");
                identity.load(null, null);
                identity.setKeyEntry("client", privateKey(key(clientName)), new char[0],
                        new Certificate[] {certificate(cert(clientName))});
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(identity, new char[0]);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            KeyManager[] presented = keys == null ? null
                    : new KeyManager[] {new AlwaysPresenting((X509ExtendedKeyManager) keys.getKeyManagers()[0])};
            context.init(presented, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot build a client context trusting " + ca, e);
        }
    }

    /** Offers its one certificate even to a server that names other CAs. */
    private static final class AlwaysPresenting extends X509ExtendedKeyManager {

        private final X509ExtendedKeyManager keys;

        AlwaysPresenting(X509ExtendedKeyManager keys) {
            this.keys = keys;
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return "client";
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return "client";
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return new String[] {"client"};
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return null;
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return keys.getCertificateChain(alias);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return keys.getPrivateKey(alias);
        }
    }

    /** The certificate in PEM file {@code pem}, e.g. {@code cert("a.test")}. */
    public static Certificate certificate(Path pem) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(pem)) {
            return CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    private static PrivateKey privateKey(Path pem) throws IOException, GeneralSecurityException {
        String text = Files.readString(pem).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(text)));
    }

    /** The path of a test resource, e.g. {@code /tls/pki/ca.crt}. */
    static Path resource(String name) {
        URL url = TestPki.class.getResource(name);
        if (url == null) {
            throw new IllegalStateException("missing test resource " + name);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(name + ": " + e.getMessage(), e);
        }
    }
}
