package io.tollgate.server.tls;

import io.netty.handler.codec.http2.Http2SecurityUtil;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.OpenSslSessionTicketKey;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.tollgate.core.config.CertificateFiles;
import io.tollgate.core.config.ClientAuthConfig;
import io.tollgate.core.config.TlsConfig;
import io.tollgate.core.config.UpstreamTlsConfig;
import java.util.List;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds TLS contexts: BoringSSL when its native library loads (faster handshakes and records),
 * the JDK's engine otherwise; TLS 1.2 and 1.3 only, with the cipher suites HTTP/2 accepts
 * (forward secrecy and AEAD). Server contexts carry a listener's certificate, ALPN names, client
 * authentication and session settings; client contexts a cluster's verification, client
 * certificate and ALPN names. Building reads files: call it on a control thread, not an event loop.
 */
public final class TlsContexts {

    private static final Logger log = LoggerFactory.getLogger(TlsContexts.class);
    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};
    private static final long SESSION_CACHE_SIZE = 20_480;

    private TlsContexts() {
    }

    /**
     * A new server context presenting {@code certificate} with the listener's other settings,
     * sharing {@code ticketKey} so that a session ticket issued under one context (before a
     * reload, or for another SNI certificate) resumes under the next.
     *
     * @throws IllegalArgumentException when a file cannot be used
     */
    public static SslContext forServer(String listenerName, CertificateFiles certificate, TlsConfig tls,
            OpenSslSessionTicketKey ticketKey) {
        SslContextBuilder builder = SslContextBuilder
                .forServer(certificate.certChainFile().toFile(), certificate.privateKeyFile().toFile())
                .sslProvider(provider("listener " + listenerName))
                .protocols(PROTOCOLS)
                .ciphers(Http2SecurityUtil.CIPHERS, SupportedCipherSuiteFilter.INSTANCE)
                .sessionCacheSize(SESSION_CACHE_SIZE)
                .sessionTimeout(tls.sessionTimeout().toSeconds());
        alpn(builder, tls.alpn());
        if (tls.clientAuth().isPresent()) {
            ClientAuthConfig auth = tls.clientAuth().get();
            builder.trustManager(auth.caFile().toFile())
                    .clientAuth(auth.required() ? ClientAuth.REQUIRE : ClientAuth.OPTIONAL);
        }
        SslContext context = build(builder, "listeners." + listenerName + ".tls: cannot use cert_chain_file "
                + certificate.certChainFile() + " with private_key_file " + certificate.privateKeyFile());
        if (context.sessionContext() instanceof OpenSslSessionContext sessions) {
            sessions.setTicketKeys(ticketKey);
        }
        return context;
    }

    /**
     * A new client context for a cluster's connections: it verifies the server's certificate
     * against the cluster's CA file and the expected name (the subject alternative names the
     * cluster lists, else the SNI, else the host's address) unless the cluster opted out, and presents the client certificate when one is configured.
     *
     * @throws IllegalArgumentException when a file cannot be used
     */
    public static SslContext forUpstream(String clusterName, UpstreamTlsConfig tls) {
        SslContextBuilder builder = SslContextBuilder.forClient()
                .sslProvider(provider("cluster " + clusterName))
                .protocols(PROTOCOLS)
                .ciphers(Http2SecurityUtil.CIPHERS, SupportedCipherSuiteFilter.INSTANCE);
        if (tls.caFile().isPresent() && !tls.subjectAltNames().isEmpty()) {
            builder.trustManager(SubjectAltNameTrust.of(tls.caFile().get(), tls.subjectAltNames()))
                    .endpointIdentificationAlgorithm(null);
        } else if (tls.caFile().isPresent()) {
            builder.trustManager(tls.caFile().get().toFile()).endpointIdentificationAlgorithm("HTTPS");
        } else {
            builder.trustManager(InsecureTrustManagerFactory.INSTANCE).endpointIdentificationAlgorithm(null);
        }
        tls.clientCertificate().ifPresent(c -> builder.keyManager(c.certChainFile().toFile(), c.privateKeyFile().toFile()));
        alpn(builder, tls.alpn());
        return build(builder, "clusters." + clusterName + ".tls: cannot build the client context");
    }

    private static SslProvider provider(String owner) {
        if (OpenSsl.isAvailable()) {
            return SslProvider.OPENSSL;
        }
        log.info("{}: BoringSSL is not available ({}), using the JDK's TLS engine", owner,
                OpenSsl.unavailabilityCause().toString());
        return SslProvider.JDK;
    }

    private static void alpn(SslContextBuilder builder, List<String> names) {
        if (!names.isEmpty()) {
            builder.applicationProtocolConfig(new ApplicationProtocolConfig(
                    ApplicationProtocolConfig.Protocol.ALPN,
                    ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                    ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                    names));
        }
    }

    private static SslContext build(SslContextBuilder builder, String what) {
        try {
            return builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
        }
    }
}
