package io.tollgate.xds.translation;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.core.v3.TransportSocket;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CertificateValidationContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CommonTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CommonTlsContext.CombinedCertificateValidationContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.SdsSecretConfig;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.TlsParameters;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.tollgate.core.config.TlsConfig;
import io.tollgate.core.config.XdsConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads the TLS transport sockets of listeners ({@code DownstreamTlsContext}) and clusters
 * ({@code UpstreamTlsContext}) whose certificates come from SDS over the ADS stream (or, for a
 * cluster, from files the bootstrap names for another SDS source, as Istio's mesh mTLS needs):
 * which secrets they need, and the settings around them.
 */
final class TransportSocketTranslator {

    static final String TLS = "envoy.transport_sockets.tls";
    /** The ALPN names a cluster may offer: HTTP's, and those of Istio's mesh mTLS. */
    private static final List<String> UPSTREAM_ALPN = List.of(TlsConfig.H2, TlsConfig.HTTP_1_1,
            IstioExtensions.ALPN_PEER_EXCHANGE, IstioExtensions.ALPN_ISTIO);

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
     * @param handshakeTimeout how long a client has to finish its handshake (the chain's
     *     {@code transport_socket_connect_timeout}, else the gateway's default)
     */
    record ListenerSecrets(String certificate, List<SniSecret> sni, Optional<String> validation,
            boolean requireClientCertificate, List<String> alpn, Duration fetchTimeout, Duration handshakeTimeout) {

        /** These settings with {@code more} chosen by SNI. */
        ListenerSecrets withSni(List<SniSecret> more) {
            return new ListenerSecrets(certificate, more, validation, requireClientCertificate, alpn, fetchTimeout,
                    handshakeTimeout);
        }

        /** These settings with clients given {@code timeout} to finish their handshake. */
        ListenerSecrets withHandshakeTimeout(Duration timeout) {
            return new ListenerSecrets(certificate, sni, validation, requireClientCertificate, alpn, fetchTimeout,
                    timeout);
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
     * @param files the secrets named with an SDS source other than ADS, read from files instead
     * @param subjectAltNames the names one of which the hosts' certificates must carry; empty: the SNI or address
     * @param matchLabels the labels of the hosts spoken to in TLS; empty: all
     */
    record ClusterSecrets(Optional<String> sni, Optional<String> validation, Optional<String> certificate,
            List<String> alpn, Duration fetchTimeout, Map<String, XdsConfig.FileSecret> files,
            List<String> subjectAltNames, Map<String, String> matchLabels) {

        /** The secrets waited for over ADS. */
        List<String> names() {
            List<String> names = new ArrayList<>();
            validation.filter(n -> !files.containsKey(n)).ifPresent(names::add);
            certificate.filter(n -> !files.containsKey(n)).ifPresent(names::add);
            return names;
        }

        /** These settings for the hosts whose labels include {@code labels} only. */
        ClusterSecrets matching(Map<String, String> labels) {
            return new ClusterSecrets(sni, validation, certificate, alpn, fetchTimeout, files, subjectAltNames, labels);
        }
    }

    /** A listener's TLS; {@code protocols} are those it serves, which its ALPN names must be. */
    static ListenerSecrets downstream(TransportSocket socket, String at, List<String> protocols) {
        DownstreamTlsContext context = unpack(socket, at, DownstreamTlsContext.class);
        String where = at + ".typed_config";
        Fields.allowOnly(context, where, Set.of("common_tls_context", "require_client_certificate"));
        CommonTlsContext common = context.getCommonTlsContext();
        where += ".common_tls_context";
        Fields.allowOnly(common, where, Set.of("tls_certificate_sds_secret_configs",
                "validation_context_sds_secret_config", "alpn_protocols"));
        List<String> certificates = certificates(common, where, 1, "exactly one", null, null);
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
                common.getTlsCertificateSdsSecretConfigsList(), common.getValidationContextSdsSecretConfig()),
                TlsConfig.DEFAULT_HANDSHAKE_TIMEOUT);
    }

    /**
     * A cluster's TLS, its hosts spoken to in {@code h2} or not; secrets named with an SDS source
     * other than ADS (Istio's {@code sds-grpc}) are taken from {@code files}.
     */
    static ClusterSecrets upstream(TransportSocket socket, String at, Map<String, XdsConfig.FileSecret> files,
            boolean h2) {
        UpstreamTlsContext context = unpack(socket, at, UpstreamTlsContext.class);
        String where = at + ".typed_config";
        Fields.allowOnly(context, where, Set.of("sni", "common_tls_context"));
        CommonTlsContext common = context.getCommonTlsContext();
        where += ".common_tls_context";
        Fields.allowOnly(common, where, Set.of("tls_certificate_sds_secret_configs",
                "validation_context_sds_secret_config", "combined_validation_context", "alpn_protocols", "tls_params"));
        if (common.hasTlsParams()) {
            tlsVersions(common.getTlsParams(), where + ".tls_params");
        }
        Map<String, XdsConfig.FileSecret> used = new HashMap<>();
        Optional<String> certificate = certificates(common, where, 0, "at most one", files, used).stream().findFirst();
        SdsSecretConfig validationConfig = common.getValidationContextSdsSecretConfig();
        List<String> subjectAltNames = List.of();
        if (common.hasCombinedValidationContext()) {
            CombinedCertificateValidationContext combined = common.getCombinedValidationContext();
            String c = where + ".combined_validation_context";
            Fields.allowOnly(combined, c, Set.of("default_validation_context", "validation_context_sds_secret_config"));
            subjectAltNames = subjectAltNames(combined.getDefaultValidationContext(), c + ".default_validation_context");
            validationConfig = combined.getValidationContextSdsSecretConfig();
            if (!combined.hasValidationContextSdsSecretConfig()) {
                throw new XdsRejection(c + ".validation_context_sds_secret_config: needed (the CAs to check the hosts"
                        + " with)");
            }
            where = c;
        }
        Optional<String> validation = common.hasValidationContextSdsSecretConfig()
                || common.hasCombinedValidationContext()
                ? Optional.of(secretName(validationConfig, where + ".validation_context_sds_secret_config", files, used))
                : Optional.empty();
        String alpnAt = at + ".typed_config.common_tls_context.alpn_protocols";
        List<String> alpn = alpn(common.getAlpnProtocolsList(), UPSTREAM_ALPN, alpnAt);
        Optional<String> sni = context.getSni().isEmpty() ? Optional.empty()
                : Optional.of(context.getSni().toLowerCase(Locale.ROOT));
        return new ClusterSecrets(sni, validation, certificate, IstioExtensions.alpnOverride(alpn, h2), fetchTimeout(
                common.getTlsCertificateSdsSecretConfigsList(), validationConfig), used, subjectAltNames, Map.of());
    }

    /**
     * Checks {@code tls_params} (Istio sends TLS 1.2 to 1.3) against the versions the gateway
     * speaks, TLS 1.2 and 1.3: a range that includes them is accepted, another refused.
     */
    private static void tlsVersions(TlsParameters params, String at) {
        Fields.allowOnly(params, at, Set.of("tls_minimum_protocol_version", "tls_maximum_protocol_version"));
        TlsParameters.TlsProtocol min = params.getTlsMinimumProtocolVersion();
        TlsParameters.TlsProtocol max = params.getTlsMaximumProtocolVersion();
        if (min == TlsParameters.TlsProtocol.TLSv1_3 || min == TlsParameters.TlsProtocol.UNRECOGNIZED) {
            throw new XdsRejection(at + ".tls_minimum_protocol_version: " + min + " not supported (supported: up to"
                    + " TLSv1_2; the gateway speaks TLS 1.2 and 1.3)");
        }
        if (max != TlsParameters.TlsProtocol.TLS_AUTO && max != TlsParameters.TlsProtocol.TLSv1_3) {
            throw new XdsRejection(at + ".tls_maximum_protocol_version: " + max + " not supported (supported: TLSv1_3,"
                    + " TLS_AUTO; the gateway speaks TLS 1.2 and 1.3)");
        }
    }

    /** The exact names of {@code match_subject_alt_names}; other matchers are refused. */
    private static List<String> subjectAltNames(CertificateValidationContext validation, String at) {
        Fields.allowOnly(validation, at, Set.of("match_subject_alt_names"));
        List<String> names = new ArrayList<>();
        for (int i = 0; i < validation.getMatchSubjectAltNamesCount(); i++) {
            StringMatcher matcher = validation.getMatchSubjectAltNames(i);
            String where = at + ".match_subject_alt_names[" + i + "]";
            Fields.allowOnly(matcher, where, Set.of("exact"));
            if (matcher.getExact().isEmpty()) {
                throw new XdsRejection(where + ".exact: must not be empty");
            }
            names.add(matcher.getExact());
        }
        return names;
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
    private static List<String> certificates(CommonTlsContext common, String at, int minimum, String supported,
            Map<String, XdsConfig.FileSecret> files, Map<String, XdsConfig.FileSecret> used) {
        int count = common.getTlsCertificateSdsSecretConfigsCount();
        if (count < minimum || count > 1) {
            throw new XdsRejection(at + ".tls_certificate_sds_secret_configs: " + count + " secrets (supported: "
                    + supported + ")");
        }
        return count == 0 ? List.of() : List.of(secretName(common.getTlsCertificateSdsSecretConfigs(0),
                at + ".tls_certificate_sds_secret_configs[0]", files, used));
    }

    /** The name of the validation context secret of {@code common}, if it names one. */
    private static Optional<String> validation(CommonTlsContext common, String at) {
        return common.hasValidationContextSdsSecretConfig()
                ? Optional.of(secretName(common.getValidationContextSdsSecretConfig(),
                        at + ".validation_context_sds_secret_config", null, null))
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

    /**
     * The name of the secret {@code config} names: over the ADS stream, or from another SDS source
     * (Istio's {@code sds-grpc}, served by istio-agent) whose secret is then one of {@code files},
     * put in {@code used}; with {@code files} null (a listener's), over ADS only.
     */
    private static String secretName(SdsSecretConfig config, String at, Map<String, XdsConfig.FileSecret> files,
            Map<String, XdsConfig.FileSecret> used) {
        Fields.allowOnly(config, at, Set.of("name", "sds_config"));
        if (!config.hasSdsConfig()) {
            throw new XdsRejection(at + ".sds_config: needs ads (the secret comes over the ADS stream)");
        }
        if (config.getName().isEmpty()) {
            throw new XdsRejection(at + ".name: must not be empty");
        }
        if (config.getSdsConfig().hasApiConfigSource() && files != null) {
            XdsConfig.FileSecret file = files.get(config.getName());
            if (file == null) {
                throw new XdsRejection(at + ": secret '" + config.getName() + "' comes from an SDS server the gateway"
                        + " does not reach (api_config_source); dynamic_resources.sds_files has no file for it"
                        + " (it has " + new TreeSet<>(files.keySet()) + ")");
            }
            used.put(config.getName(), file);
            return config.getName();
        }
        ClusterTranslator.requireAds(config.getSdsConfig(), at + ".sds_config");
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
