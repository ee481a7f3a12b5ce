package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where the gateway takes its dynamic configuration from (Envoy's bootstrap {@code node} and
 * {@code dynamic_resources}): one aggregated discovery service (ADS) stream to a control plane,
 * which the gateway identifies itself to as {@link Node}. What arrives over it is added to the
 * listeners and clusters of the file.
 *
 * @param node who this gateway is, sent to the control plane with every request
 * @param address the control plane's host name or address
 * @param port the control plane's gRPC port
 * @param initialBackoff the wait before the first reconnection attempt; each failed attempt
 *     doubles it, with jitter
 * @param maxBackoff the longest wait between reconnection attempts
 * @param tls when present, the stream is encrypted, the control plane's certificate checked and
 *     a client certificate presented as these settings say; else it is plaintext
 * @param maxMessageBytes the largest response accepted; a larger one breaks the stream
 * @param apiType the ADS protocol spoken on the stream: state of the world or incremental
 * @param sdsFiles the secrets the control plane names with an SDS source other than the ADS
 *     stream (Istio's {@code sds-grpc}, istio-agent's socket), by name, read from files instead
 * @param initialFetchTimeout how long readiness waits for the first listeners and the first
 *     clusters (Envoy's {@code initial_fetch_timeout} of {@code lds_config} and {@code cds_config}):
 *     a control plane with none to send may send nothing at all
 */
public record XdsConfig(Node node, String address, int port, Duration initialBackoff, Duration maxBackoff,
        Optional<UpstreamTlsConfig> tls, int maxMessageBytes, ApiType apiType, Map<String, FileSecret> sdsFiles,
        Duration initialFetchTimeout) {

    /** Envoy's and grpc-java's first reconnection delay. */
    public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofMillis(500);
    /**
     * 64 MiB: an EDS response of 50,000 labelled endpoints is about 4.3 MiB, past gRPC's own 4 MiB
     * default.
     */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
    /** The longest reconnection delay by default. */
    public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(30);
    /** Envoy's default {@code initial_fetch_timeout}. */
    public static final Duration DEFAULT_INITIAL_FETCH_TIMEOUT = Duration.ofSeconds(15);

    public XdsConfig {
        requireNonNull(node, "node");
        requireNonNull(address, "address");
        requireNonNull(tls, "tls");
        requireNonNull(apiType, "apiType");
        requireNonNull(initialFetchTimeout, "initialFetchTimeout");
        sdsFiles = Map.copyOf(sdsFiles);
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("maxBackoff: " + maxBackoff + " (expected: >= initialBackoff "
                    + initialBackoff + ")");
        }
    }

    /** Settings without secrets from files, with the default initial fetch timeout. */
    public XdsConfig(Node node, String address, int port, Duration initialBackoff, Duration maxBackoff,
            Optional<UpstreamTlsConfig> tls, int maxMessageBytes, ApiType apiType) {
        this(node, address, port, initialBackoff, maxBackoff, tls, maxMessageBytes, apiType, Map.of(),
                DEFAULT_INITIAL_FETCH_TIMEOUT);
    }

    /**
     * An SDS secret kept in files, read again when they change (a certificate rotated in place):
     * a certificate with its key ({@code tls_certificate}) or CA certificates ({@code validation_context}).
     *
     * @param certificate the certificate chain and key, for a certificate secret
     * @param trustedCa the CA file, for a validation secret
     */
    public record FileSecret(Optional<CertificateFiles> certificate, Optional<java.nio.file.Path> trustedCa) {

        public FileSecret {
            if (certificate.isPresent() == trustedCa.isPresent()) {
                throw new InvalidFieldException("", "needs cert_chain_file and private_key_file, or ca_file"
                        + " (expected one of them)");
            }
        }
    }

    /** The ADS protocol variants, named as Envoy's {@code ApiConfigSource.api_type} names them. */
    public enum ApiType {
        /** State of the world: every response carries all resources of its type (Envoy's default). */
        GRPC,
        /** Incremental ("delta") xDS: responses carry the resources added or changed and the names removed. */
        DELTA_GRPC
    }

    /**
     * The gateway as the control plane knows it (Envoy's {@code Node}).
     *
     * @param id unique per gateway instance
     * @param cluster the group of identical gateways this one belongs to
     * @param locality where it runs: region, zone and sub-zone, each possibly empty
     * @param metadata free-form values the control plane may select configuration by: text,
     *     numbers, booleans, lists and mappings (Istio reads its {@code LABELS} mapping), as the
     *     protobuf {@code Struct} they are sent as
     */
    public record Node(String id, String cluster, Locality locality, Map<String, Object> metadata) {

        public Node {
            requireNonNull(id, "id");
            requireNonNull(cluster, "cluster");
            requireNonNull(locality, "locality");
            metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        }
    }

    /** Region, zone and sub-zone of a gateway; empty text for a level not given. */
    public record Locality(String region, String zone, String subZone) {

        /** No locality. */
        public static final Locality NONE = new Locality("", "", "");
    }
}
