package io.tollgate.xds.translation;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.core.v3.TransportSocket;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CommonTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.SdsSecretConfig;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.tollgate.core.config.TlsConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the TLS transport sockets of listeners ({@code DownstreamTlsContext}) and clusters
 * ({@code UpstreamTlsContext}) whose certificates come from SDS over the ADS stream: which
 * secrets they need, and the settings around them.
 */
final class TransportSocketTranslator {

    static final String TLS = "envoy.transport_sockets.tls";

    private TransportSocketTranslator() {
    }

    /**
     * What a TLS listener needs from SDS.
     *
     * @param certificate the secret of its default certificate
     * @param sni certificates presented to clients whose SNI names one of their server names
     * @param validation the secret of the CAs client certificates are checked against, if it asks for them
     * @param requireClientCertificate whether a client without a certificate is refused
     * @param alpn the ALPN names offered
     * @param fetchTimeout the {@code initial_fetch_timeout} of its secrets (the longest)
     */
    record ListenerSecrets(String certificate, List<SniSecret> sni, Optional<String> validation,
            boolean requireClientCertificate, List<String> alpn, Duration fetchTimeout) {

        /** These settings with {@code more} chosen by SNI. */
        ListenerSecrets withSni(List<SniSecret> more) {
            return new ListenerSecrets(certificate, more, validation, requireClientCertificate, alpn, fetchTimeout);
        }

        List<String> names() {
            List<String> names = new ArrayList<>(List.of(certificate));
            sni.forEach(s -> names.add(s.certificate()));
            validation.ifPresent(names::add);
            return names;
        }
    }

    /** A certificate secret presented to clients whose SNI is one of {@code serverNames}. */
    record SniSecret(List<String> serverNames, String certificate) {
    }

    /**
     * What a TLS cluster needs from SDS.
     *
     * @param sni the server name sent and verified
     * @param validation the secret of the CAs the hosts' certificates are checked against; none: not checked
     * @param certificate the secret of the client certificate presented, if any
     * @param alpn the ALPN names offered; empty: the cluster's protocol
     * @param fetchTimeout the {@code initial_fetch_timeout} of its secrets (the longest)
     */
    record ClusterSecrets(Optional<String> sni, Optional<String> validation, Optional<String> certificate,
            List<String> alpn, Duration fetchTimeout) {

        List<String> names() {
            List<String> names = new ArrayList<>();
            validation.ifPresent(names::add);
            certificate.ifPresent(names::add);
            return names;
        }
    }

    /** A listener's TLS; {@code protocols} are those it serves, which its ALPN names must be. */
    static ListenerSecrets downstream(TransportSocket socket, String at, List<String> protocols) {
        DownstreamTlsContext context = unpack(socket, at, DownstreamTlsContext.class);
        String where = at + ".typed_config";
        Fields.allowOnly(context, where, Set.of("common_tls_context", "require_client_certificate"));
        CommonTlsContext common = context.getCommonTlsContext();
        where += ".common_tls_context";
        List<String> certificates = certificates(common, where, 1, "exactly one");
        String certificate = certificates.get(0);
        Optional<String> validation = validation(common, where);
        boolean required = context.getRequireClientCertificate().getValue();
        if (required && validation.isEmpty()) {
            throw new XdsRejection(at + ".typed_config.require_client_certificate: needs"
                    + " common_tls_context.validation_context_sds_secret_config to check the certificates with");
        }
        List<String> served = new ArrayList<>();
        if (protocols.contains("h2c")) {
            served.add(TlsConfig.H2);
        }
        if (protocols.contains("http1")) {
            served.add(TlsConfig.HTTP_1_1);
        }
        List<String> alpn = common.getAlpnProtocolsCount() == 0 ? served
                : alpn(common.getAlpnProtocolsList(), served, where + ".alpn_protocols");
        return new ListenerSecrets(certificate, List.of(), validation, required, alpn, fetchTimeout(
                common.getTlsCertificateSdsSecretConfigsList(), common.getValidationContextSdsSecretConfig()));
    }

    /** A cluster's TLS. */
    static ClusterSecrets upstream(TransportSocket socket, String at) {
        UpstreamTlsContext context = unpack(socket, at, UpstreamTlsContext.class);
        String where = at + ".typed_config";
        Fields.allowOnly(context, where, Set.of("sni", "common_tls_context"));
        CommonTlsContext common = context.getCommonTlsContext();
        where += ".common_tls_context";
        Optional<String> certificate = certificates(common, where, 0, "at most one").stream().findFirst();
        Optional<String> validation = validation(common, where);
        List<String> alpn = alpn(common.getAlpnProtocolsList(), List.of(TlsConfig.H2, TlsConfig.HTTP_1_1),
                where + ".alpn_protocols");
        Optional<String> sni = context.getSni().isEmpty() ? Optional.empty()
                : Optional.of(context.getSni().toLowerCase(Locale.ROOT));
        return new ClusterSecrets(sni, validation, certificate, alpn, fetchTimeout(
                common.getTlsCertificateSdsSecretConfigsList(), common.getValidationContextSdsSecretConfig()));
    }

    /** The longest {@code initial_fetch_timeout} of the secrets named (zero, for ever, is the longest). */
    private static Duration fetchTimeout(List<SdsSecretConfig> certificates, SdsSecretConfig validation) {
        List<SdsSecretConfig> all = new ArrayList<>(certificates);
        if (!validation.getName().isEmpty()) {
            all.add(validation);
        }
        Duration longest = Duration.ofNanos(1);
        for (SdsSecretConfig config : all) {
            Duration timeout = ClusterTranslator.initialFetchTimeout(config.getSdsConfig());
            if (timeout.isZero()) {
                return timeout;
            }
            if (timeout.compareTo(longest) > 0) {
                longest = timeout;
            }
        }
        return longest;
    }

    /**
     * The names of the certificate secrets of {@code common}, which must set only what the
     * gateway supports: {@code minimum} or one of them ({@code supported} says how many in errors).
     */
    private static List<String> certificates(CommonTlsContext common, String at, int minimum, String supported) {
        Fields.allowOnly(common, at, Set.of("tls_certificate_sds_secret_configs",
                "validation_context_sds_secret_config", "alpn_protocols"));
        int count = common.getTlsCertificateSdsSecretConfigsCount();
        if (count < minimum || count > 1) {
            throw new XdsRejection(at + ".tls_certificate_sds_secret_configs: " + count + " secrets (supported: "
                    + supported + ")");
        }
        return count == 0 ? List.of() : List.of(secretName(common.getTlsCertificateSdsSecretConfigs(0),
                at + ".tls_certificate_sds_secret_configs[0]"));
    }

    /** The name of the validation context secret of {@code common}, if it names one. */
    private static Optional<String> validation(CommonTlsContext common, String at) {
        return common.hasValidationContextSdsSecretConfig()
                ? Optional.of(secretName(common.getValidationContextSdsSecretConfig(),
                        at + ".validation_context_sds_secret_config"))
                : Optional.empty();
    }

    private static List<String> alpn(List<String> names, List<String> supported, String at) {
        for (int i = 0; i < names.size(); i++) {
            if (!supported.contains(names.get(i))) {
                throw new XdsRejection(at + "[" + i + "]: '" + names.get(i) + "' not supported (supported: " + supported
                        + ")");
            }
        }
        return List.copyOf(names);
    }

    private static String secretName(SdsSecretConfig config, String at) {
        Fields.allowOnly(config, at, Set.of("name", "sds_config"));
        if (!config.hasSdsConfig()) {
            throw new XdsRejection(at + ".sds_config: needs ads (the secret comes over the ADS stream)");
        }
        ClusterTranslator.requireAds(config.getSdsConfig(), at + ".sds_config");
        if (config.getName().isEmpty()) {
            throw new XdsRejection(at + ".name: must not be empty");
        }
        return config.getName();
    }

    private static <T extends Message> T unpack(TransportSocket socket, String at, Class<T> type) {
        Fields.allowOnly(socket, at, Set.of("name", "typed_config"));
        Any config = socket.getTypedConfig();
        if (!config.is(type)) {
            throw new XdsRejection(at + ": '" + socket.getName() + "' with typed_config " + config.getTypeUrl()
                    + " not supported (supported: " + TLS + " with " + type.getSimpleName() + ")");
        }
        try {
            return config.unpack(type);
        } catch (InvalidProtocolBufferException e) {
            throw new XdsRejection(at + ".typed_config: cannot be decoded: " + e.getMessage());
        }
    }
}
