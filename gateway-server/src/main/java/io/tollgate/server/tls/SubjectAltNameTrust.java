package io.tollgate.server.tls;

import io.netty.handler.ssl.util.SimpleTrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.ManagerFactoryParameters;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Verifies a host's certificate as Envoy does with {@code match_subject_alt_names}: it must chain
 * to the CA file, and carry one of the expected subject alternative names (URI or DNS, compared
 * exactly), which is what identifies an Istio workload (its SPIFFE URI); the name the connection
 * was opened with (SNI or address) is not checked then, as a workload's certificate does not name it.
 */
final class SubjectAltNameTrust extends SimpleTrustManagerFactory {

    private static final int DNS = 2;
    private static final int URI = 6;

    private final TrustManager[] managers;

    private SubjectAltNameTrust(X509TrustManager chain, List<String> names) {
        this.managers = new TrustManager[] {new Checker(chain, names)};
    }

    /** The trust of hosts whose certificates chain to {@code caFile} and carry one of {@code names}. */
    static TrustManagerFactory of(Path caFile, List<String> names) {
        try (InputStream in = Files.newInputStream(caFile)) {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (Certificate ca : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                store.setCertificateEntry("ca-" + i++, ca);
            }
            TrustManagerFactory pkix = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            pkix.init(store);
            for (TrustManager manager : pkix.getTrustManagers()) {
                if (manager instanceof X509TrustManager x509) {
                    return new SubjectAltNameTrust(x509, names);
                }
            }
            throw new IllegalArgumentException("no X.509 trust manager for " + caFile);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot read the CA certificates of " + caFile + ": " + e.getMessage(), e);
        }
    }

    @Override
    protected void engineInit(KeyStore keyStore) {
    }

    @Override
    protected void engineInit(ManagerFactoryParameters parameters) {
    }

    @Override
    protected TrustManager[] engineGetTrustManagers() {
        return managers.clone();
    }

    /** The chain checked by the CA's trust manager, then the leaf's names. */
    private static final class Checker extends X509ExtendedTrustManager {

        private final X509TrustManager chain;
        private final List<String> names;

        Checker(X509TrustManager chain, List<String> names) {
            this.chain = chain;
            this.names = List.copyOf(names);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] certificates, String authType) throws CertificateException {
            chain.checkServerTrusted(certificates, authType);
            checkNames(certificates[0]);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] certificates, String authType, Socket socket)
                throws CertificateException {
            checkServerTrusted(certificates, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] certificates, String authType, SSLEngine engine)
                throws CertificateException {
            checkServerTrusted(certificates, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] certificates, String authType) throws CertificateException {
            throw new CertificateException("a cluster's connections verify servers only");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] certificates, String authType, Socket socket)
                throws CertificateException {
            checkClientTrusted(certificates, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] certificates, String authType, SSLEngine engine)
                throws CertificateException {
            checkClientTrusted(certificates, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return chain.getAcceptedIssuers();
        }

        private void checkNames(X509Certificate leaf) throws CertificateException {
            Collection<List<?>> alternatives;
            try {
                alternatives = leaf.getSubjectAlternativeNames();
            } catch (CertificateParsingException e) {
                throw new CertificateException("unreadable subject alternative names: " + e.getMessage(), e);
            }
            if (alternatives != null) {
                for (List<?> alternative : alternatives) {
                    Object type = alternative.get(0);
                    if ((type.equals(URI) || type.equals(DNS)) && names.contains(String.valueOf(alternative.get(1)))) {
                        return;
                    }
                }
            }
            throw new CertificateException("the certificate's subject alternative names " + alternatives
                    + " include none of " + names);
        }
    }
}
