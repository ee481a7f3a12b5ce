package io.tollgate.server.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.internal.tcnative.SSL;
import io.tollgate.core.config.UpstreamTlsConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SNIHostName;

/**
 * The client TLS context of the clusters sharing one {@link UpstreamTlsConfig}, rebuilt on the
 * certificate control thread when its files change; connections read the current one. Contexts
 * are kept by configuration for the life of the process (one per distinct {@code tls} block), so
 * every event loop and every health check of a cluster shares one.
 */
public final class UpstreamTls {

    /** How often a cluster's CA and client certificate files are looked at. */
    static final Duration RELOAD_INTERVAL = Duration.ofSeconds(5);
    private static final Map<UpstreamTlsConfig, UpstreamTls> BY_CONFIG = new ConcurrentHashMap<>();

    private final UpstreamTlsConfig config;
    /**
     * Whether the SNI is a name the JDK will not send (Istio's {@code outbound_.80_._.host}: an
     * underscore is no letter, digit or hyphen), which BoringSSL is then told directly.
     */
    private final boolean sniSetDirectly;
    private volatile SslContext context;

    private UpstreamTls(String clusterName, UpstreamTlsConfig config) {
        this.config = config;
        this.sniSetDirectly = config.sni().filter(name -> !sendableByTheJdk(name)).isPresent();
        this.context = TlsContexts.forUpstream(clusterName, config);
        List<Path> files = new ArrayList<>();
        config.caFile().ifPresent(files::add);
        config.clientCertificate().ifPresent(c -> {
            files.add(c.certChainFile());
            files.add(c.privateKeyFile());
        });
        if (!files.isEmpty()) {
            CertificateFileWatcher.watch("cluster " + clusterName, files, RELOAD_INTERVAL,
                    () -> context = TlsContexts.forUpstream(clusterName, config));
        }
    }

    /**
     * The shared TLS of {@code config}, built on first use: call it once when a cluster is
     * prepared (on a control thread) so that event loops only find it.
     *
     * @throws IllegalArgumentException when its files cannot be used
     */
    public static UpstreamTls of(String clusterName, UpstreamTlsConfig config) {
        return BY_CONFIG.computeIfAbsent(config, c -> new UpstreamTls(clusterName, c));
    }

    /**
     * A new client handler for a connection to {@code address}: it sends the configured SNI (none
     * for an address without it) and expects the certificate to name the SNI, else the address.
     */
    SslHandler newHandler(ByteBufAllocator alloc, InetSocketAddress address) {
        String peer = config.sni().orElseGet(() -> address.isUnresolved() ? address.getHostString() // logical_dns
                : address.getAddress().getHostAddress());
        SslHandler handler = context.newHandler(alloc, peer, address.getPort());
        if (sniSetDirectly && handler.engine() instanceof ReferenceCountedOpenSslEngine openSsl) {
            SSL.setTlsExtHostName(openSsl.sslPointer(), peer);
        }
        return handler;
    }

    private static boolean sendableByTheJdk(String name) {
        try {
            new SNIHostName(name);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
