package io.tollgate.server.tls;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.handler.ssl.OpenSslSessionTicketKey;
import io.netty.handler.ssl.SniHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.DomainWildcardMappingBuilder;
import io.netty.util.Mapping;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.core.config.ClientAuthConfig;
import io.tollgate.core.config.SniCertificateConfig;
import io.tollgate.core.config.TlsConfig;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS side of one listener: the contexts of its certificates (a default one and those chosen by
 * SNI), rebuilt on the certificate control thread when their files change and published as one
 * immutable {@link Contexts}; each new connection takes the contexts current when it is accepted,
 * so existing connections carry on with the ones they started with. Also checks a client
 * certificate against the listener's SAN allow-list and keeps the identity on the connection.
 */
public final class ListenerTls implements AutoCloseable {

    /** The contexts one connection's handshake may use. */
    private record Contexts(SslContext defaultContext, Mapping<String, SslContext> bySni, List<SslContext> all) {
    }

    /** What {@link #verifyPeer} decided. */
    public enum PeerVerdict {
        /** No client certificate was asked for or none was sent where that is allowed. */
        ANONYMOUS,
        /** The client's certificate is verified and allowed; its identity is on the connection. */
        VERIFIED,
        /** The certificate names none of the allowed SANs, or a required one is missing: close. */
        REFUSED
    }

    private static final Logger log = LoggerFactory.getLogger(ListenerTls.class);

    private final String listenerName;
    private final TlsConfig config;
    private final OpenSslSessionTicketKey ticketKey;
    private final AutoCloseable watch;
    private volatile Contexts contexts;

    private ListenerTls(String listenerName, TlsConfig config) {
        this.listenerName = listenerName;
        this.config = config;
        this.ticketKey = newTicketKey();
        this.contexts = build();
        this.watch = CertificateFileWatcher.watch("listener " + listenerName, files(config), config.reloadInterval(),
                () -> contexts = build());
    }

    /**
     * Builds the listener's contexts and starts watching their files.
     *
     * @throws IllegalArgumentException when a certificate or key cannot be used
     */
    public static ListenerTls start(String listenerName, TlsConfig config) {
        return new ListenerTls(listenerName, config);
    }

    /**
     * The handler that terminates TLS on a new connection: an {@link SslHandler} with the current
     * default certificate or, when the listener has SNI certificates, a {@link SniHandler} that
     * picks one from the ClientHello (the default when the name is absent or unknown).
     */
    public ChannelHandler newHandler(Channel channel) {
        Contexts current = contexts;
        long timeoutMillis = config.handshakeTimeout().toMillis();
        if (current.bySni() == null) {
            SslHandler handler = current.defaultContext().newHandler(channel.alloc());
            handler.setHandshakeTimeoutMillis(timeoutMillis);
            return handler;
        }
        return new SniHandler(current.bySni(), timeoutMillis);
    }

    /**
     * Checks the client certificate of a connection whose handshake succeeded, against the SAN
     * allow-list, and keeps the identity on the channel when it passes.
     */
    public PeerVerdict verifyPeer(Channel channel, SslHandler handler) {
        if (config.clientAuth().isEmpty()) {
            return PeerVerdict.ANONYMOUS;
        }
        ClientAuthConfig auth = config.clientAuth().get();
        Certificate[] chain;
        try {
            chain = handler.engine().getSession().getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            return auth.required() ? PeerVerdict.REFUSED : PeerVerdict.ANONYMOUS;
        }
        if (chain.length == 0 || !(chain[0] instanceof X509Certificate certificate)) {
            return auth.required() ? PeerVerdict.REFUSED : PeerVerdict.ANONYMOUS;
        }
        PeerIdentity identity = PeerIdentity.of(certificate);
        if (!auth.allowedSans().isEmpty()
                && identity.subjectAltNames().stream().noneMatch(auth.allowedSans()::contains)) {
            log.debug("listener {}: client {} ({}) is not in the SAN allow-list, closing", listenerName,
                    channel.remoteAddress(), identity);
            return PeerVerdict.REFUSED;
        }
        identity.attachTo(channel);
        return PeerVerdict.VERIFIED;
    }

    /** Stops watching the files and releases the current contexts (open connections keep theirs). */
    @Override
    public void close() {
        try {
            watch.close();
        } catch (Exception e) {
            log.debug("listener {}: stopping the certificate watch failed", listenerName, e);
        }
        contexts.all().forEach(ReferenceCountUtil::release);
    }

    private Contexts build() {
        List<SslContext> all = new ArrayList<>();
        SslContext defaultContext = TlsContexts.forServer(listenerName, config.certificate(), config, ticketKey);
        all.add(defaultContext);
        if (config.sniCertificates().isEmpty()) {
            return new Contexts(defaultContext, null, all);
        }
        DomainWildcardMappingBuilder<SslContext> mapping = new DomainWildcardMappingBuilder<>(defaultContext);
        for (SniCertificateConfig sni : config.sniCertificates()) {
            SslContext context = TlsContexts.forServer(listenerName, sni.certificate(), config, ticketKey);
            all.add(context);
            for (String name : sni.serverNames()) {
                mapping.add(name, context);
            }
        }
        return new Contexts(defaultContext, mapping.build(), all);
    }

    private static List<Path> files(TlsConfig config) {
        List<Path> files = new ArrayList<>(List.of(config.certChainFile(), config.privateKeyFile()));
        for (SniCertificateConfig sni : config.sniCertificates()) {
            files.add(sni.certificate().certChainFile());
            files.add(sni.certificate().privateKeyFile());
        }
        config.clientAuth().ifPresent(auth -> files.add(auth.caFile()));
        return files;
    }

    private static OpenSslSessionTicketKey newTicketKey() {
        SecureRandom random = new SecureRandom();
        byte[] name = new byte[OpenSslSessionTicketKey.NAME_SIZE];
        byte[] hmac = new byte[OpenSslSessionTicketKey.HMAC_KEY_SIZE];
        byte[] aes = new byte[OpenSslSessionTicketKey.AES_KEY_SIZE];
        random.nextBytes(name);
        random.nextBytes(hmac);
        random.nextBytes(aes);
        return new OpenSslSessionTicketKey(name, hmac, aes);
    }
}
