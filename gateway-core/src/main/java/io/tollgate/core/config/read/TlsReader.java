package io.tollgate.core.config.read;

import io.tollgate.core.config.CertificateFiles;
import io.tollgate.core.config.ClientAuthConfig;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.ConfigChecks;
import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.SniCertificateConfig;
import io.tollgate.core.config.TlsConfig;
import io.tollgate.core.config.UpstreamTlsConfig;
import io.tollgate.core.tls.PemFileException;
import io.tollgate.core.tls.PemFiles;
import java.nio.file.Path;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the TLS blocks of the configuration (a listener's {@code tls}, a cluster's {@code tls},
 * the control plane's {@code tls}) and PEM files named on their own (xDS secrets), checking every
 * file they name when the configuration is loaded so that a bad file is reported with the field
 * that names it.
 */
final class TlsReader {

    private static final Pattern SERVER_NAME = Pattern.compile("(\\*\\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*");
    private static final Set<String> UPSTREAM_ALPN = Set.of(TlsConfig.H2, TlsConfig.HTTP_1_1);

    private TlsReader() {
    }

    /** The listener's TLS settings; the ALPN names default to those its protocols serve, h2 first. */
    static Optional<TlsConfig> listener(ConfigNode listener, List<String> protocols) {
        Optional<ConfigNode> tls = listener.optional("tls");
        if (tls.isEmpty()) {
            return Optional.empty();
        }
        ConfigNode n = tls.get().allowOnly(Set.of("cert_chain_file", "private_key_file", "alpn", "handshake_timeout",
                "sni_certificates", "client_auth", "reload_interval", "session_timeout"));
        CertificateFiles certificate = certificate(n);
        List<String> served = new ArrayList<>();
        if (protocols.contains("h2c")) {
            served.add(TlsConfig.H2);
        }
        if (protocols.contains("http1")) {
            served.add(TlsConfig.HTTP_1_1);
        }
        List<String> alpn = n.has("alpn") ? n.list("alpn", a -> {
            String name = a.asString();
            if (!served.contains(name)) {
                throw a.error("'" + name + "' is not served by protocols " + protocols + " (expected one of " + served
                        + ": h2 needs h2c, http/1.1 needs http1)");
            }
            return name;
        }) : served;
        ConfigChecks.unique(n.child("alpn"), alpn, "protocol");
        List<SniCertificateConfig> sni = n.list("sni_certificates", s -> {
            s.allowOnly(Set.of("server_names", "cert_chain_file", "private_key_file"));
            List<String> names = s.list("server_names", TlsReader::serverName);
            if (names.isEmpty()) {
                throw s.child("server_names").error("must list at least one name");
            }
            return new SniCertificateConfig(names, certificate(s));
        });
        Set<String> names = new HashSet<>();
        for (int i = 0; i < sni.size(); i++) {
            for (String name : sni.get(i).serverNames()) {
                if (!names.add(name)) {
                    throw n.child("sni_certificates").element(i).error("server name '" + name
                            + "' is already listed by an earlier entry (expected each name once)");
                }
            }
        }
        return Optional.of(new TlsConfig(certificate.certChainFile(), certificate.privateKeyFile(), alpn,
                n.positiveDuration("handshake_timeout", TlsConfig.DEFAULT_HANDSHAKE_TIMEOUT),
                sni,
                n.optional("client_auth").map(TlsReader::clientAuth),
                n.positiveDuration("reload_interval", TlsConfig.DEFAULT_RELOAD_INTERVAL),
                n.positiveDuration("session_timeout", TlsConfig.DEFAULT_SESSION_TIMEOUT)));
    }

    /** A cluster's TLS settings; the ALPN name offered defaults to the cluster's protocol. */
    static Optional<UpstreamTlsConfig> upstream(ConfigNode cluster, String protocol) {
        Optional<ConfigNode> tls = cluster.optional("tls");
        if (tls.isEmpty()) {
            return Optional.empty();
        }
        ConfigNode n = tls.get().allowOnly(Set.of("sni", "ca_file", "insecure_skip_verify", "cert_chain_file",
                "private_key_file", "alpn", "subject_alt_names", "match_labels"));
        Optional<Path> ca = n.optionalString("ca_file").map(Path::of);
        ca.ifPresent(file -> certificateChain(n.child("ca_file"), file));
        boolean insecure = n.bool("insecure_skip_verify", false);
        if (ca.isPresent() == insecure) {
            throw n.error(ca.isPresent()
                    ? "ca_file and insecure_skip_verify: true exclude each other (expected one of them)"
                    : "needs ca_file to verify the hosts' certificates, or insecure_skip_verify: true to accept any"
                            + " certificate (expected one of them)");
        }
        Optional<CertificateFiles> client = n.has("cert_chain_file") || n.has("private_key_file")
                ? Optional.of(certificate(n)) : Optional.empty();
        String defaultAlpn = ClusterConfig.H2.equals(protocol) ? TlsConfig.H2 : TlsConfig.HTTP_1_1;
        List<String> alpn = n.has("alpn") ? n.list("alpn", a -> {
            String name = a.asString();
            if (!UPSTREAM_ALPN.contains(name)) {
                throw a.error("'" + name + "' is not an ALPN name the gateway speaks (expected one of "
                        + List.of(TlsConfig.H2, TlsConfig.HTTP_1_1) + ")");
            }
            return name;
        }) : List.of(defaultAlpn);
        ConfigChecks.unique(n.child("alpn"), alpn, "protocol");
        return Optional.of(n.build(() -> new UpstreamTlsConfig(n.optionalString("sni").map(s -> serverName(n.child("sni"))),
                ca, client, alpn, n.list("subject_alt_names", ConfigNode::asString), n.stringMap("match_labels"))));
    }

    /** Checks a certificate and its key, or CA certificates: see {@link ConfigLoader#pemFiles}. */
    static void pemFiles(ConfigNode n) {
        n.allowOnly(Set.of("cert_chain_file", "private_key_file", "ca_file"));
        if (n.has("ca_file")) {
            certificateChain(n.child("ca_file"), Path.of(n.string("ca_file")));
        }
        if (n.has("cert_chain_file") || n.has("private_key_file")) {
            certificate(n);
        }
    }

    private static CertificateFiles certificate(ConfigNode n) {
        Path certChain = Path.of(n.string("cert_chain_file"));
        Path privateKey = Path.of(n.string("private_key_file"));
        List<Certificate> chain = certificateChain(n.child("cert_chain_file"), certChain);
        privateKeyOf(n.child("private_key_file"), privateKey, chain.get(0));
        return new CertificateFiles(certChain, privateKey);
    }

    private static ClientAuthConfig clientAuth(ConfigNode n) {
        n.allowOnly(Set.of("mode", "ca_file", "allowed_sans"));
        String mode = n.string("mode", "required");
        if (!mode.equals("required") && !mode.equals("optional")) {
            throw n.child("mode").error("'" + mode + "' (expected required or optional)");
        }
        Path ca = Path.of(n.string("ca_file"));
        certificateChain(n.child("ca_file"), ca);
        List<String> sans = n.list("allowed_sans", ConfigNode::asString);
        ConfigChecks.unique(n.child("allowed_sans"), sans, "name");
        return new ClientAuthConfig(mode.equals("required"), ca, sans);
    }

    /** The certificates of the PEM chain file {@code file}, named at {@code field}; a bad file fails there. */
    private static List<Certificate> certificateChain(ConfigNode field, Path file) {
        try {
            return PemFiles.certificateChain(file);
        } catch (PemFileException e) {
            throw field.error(e.getMessage());
        }
    }

    /** Checks the PEM key file {@code file}, named at {@code field}, against {@code certificate}. */
    private static void privateKeyOf(ConfigNode field, Path file, Certificate certificate) {
        try {
            PemFiles.privateKeyOf(file, certificate);
        } catch (PemFileException e) {
            throw field.error(e.getMessage());
        }
    }

    private static String serverName(ConfigNode n) {
        String name = n.asString().toLowerCase(Locale.ROOT);
        if (!SERVER_NAME.matcher(name).matches()) {
            throw n.error("'" + n.asString() + "' is not a server name (expected a DNS name or *.suffix)");
        }
        return name;
    }
}
