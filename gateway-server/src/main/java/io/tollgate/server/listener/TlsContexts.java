package io.tollgate.server.listener;

import io.netty.handler.codec.http2.Http2SecurityUtil;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.tollgate.core.config.TlsConfig;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the server-side TLS context of a listener: BoringSSL when its native library loads (faster
 * handshakes and records), the JDK's engine otherwise; TLS 1.2 and 1.3 only, with the cipher
 * suites HTTP/2 accepts (forward secrecy and AEAD), and the listener's ALPN names.
 */
final class TlsContexts {

    private static final Logger log = LoggerFactory.getLogger(TlsContexts.class);
    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private TlsContexts() {
    }

    /**
     * A new context for {@code listenerName}; the caller owns it and MUST release it
     * ({@code ReferenceCountUtil.release}) when the listener closes.
     *
     * @throws IllegalArgumentException when the certificate or key cannot be used
     */
    static SslContext forServer(String listenerName, TlsConfig tls) {
        SslProvider provider = SslProvider.JDK;
        if (OpenSsl.isAvailable()) {
            provider = SslProvider.OPENSSL;
        } else {
            log.info("listener {}: BoringSSL is not available ({}), terminating TLS with the JDK engine",
                    listenerName, OpenSsl.unavailabilityCause().toString());
        }
        SslContextBuilder builder = SslContextBuilder
                .forServer(tls.certChainFile().toFile(), tls.privateKeyFile().toFile())
                .sslProvider(provider)
                .protocols(PROTOCOLS)
                .ciphers(Http2SecurityUtil.CIPHERS, SupportedCipherSuiteFilter.INSTANCE);
        if (!tls.alpn().isEmpty()) {
            builder.applicationProtocolConfig(new ApplicationProtocolConfig(
                    ApplicationProtocolConfig.Protocol.ALPN,
                    ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                    ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                    tls.alpn()));
        }
        try {
            return builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("listeners." + listenerName + ".tls: cannot use cert_chain_file "
                    + tls.certChainFile() + " with private_key_file " + tls.privateKeyFile() + ": " + e.getMessage(), e);
        }
    }
}
