package io.tollgate.core.config.read;

import io.tollgate.core.config.CertificateFiles;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.TlsConfig;
import io.tollgate.core.config.UpstreamTlsConfig;
import io.tollgate.core.config.XdsConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the xDS bootstrap of the file: the control plane of {@code dynamic_resources} (address,
 * backoff, TLS, message size, ADS flavour) and the {@code node} that introduces the gateway to it.
 */
final class XdsBootstrapReader {

    private XdsBootstrapReader() {
    }

    /** The control plane of {@code dynamic_resources}, which needs a {@code node} to introduce the gateway. */
    static Optional<XdsConfig> xds(ConfigNode root) {
        if (!root.has("dynamic_resources")) {
            if (root.has("node")) {
                throw root.child("node").error("is only used with dynamic_resources (none configured)");
            }
            return Optional.empty();
        }
        ConfigNode dynamic = root.child("dynamic_resources");
        dynamic.allowOnly(Set.of("ads_config", "sds_files", "initial_fetch_timeout"));
        ConfigNode ads = dynamic.required("ads_config");
        ads.allowOnly(Set.of("address", "port", "initial_backoff", "max_backoff", "tls", "max_message_bytes",
                "api_type"));
        Duration initial = ads.positiveDuration("initial_backoff", XdsConfig.DEFAULT_INITIAL_BACKOFF);
        Duration max = ads.positiveDuration("max_backoff", XdsConfig.DEFAULT_MAX_BACKOFF);
        if (max.compareTo(initial) < 0) {
            throw ads.child("max_backoff").error(max.toMillis() + " ms (expected at least initial_backoff, "
                    + initial.toMillis() + " ms)");
        }
        Optional<UpstreamTlsConfig> tls = TlsReader.upstream(ads, ClusterConfig.H2);
        if (tls.isPresent() && !tls.get().alpn().equals(List.of(TlsConfig.H2))) {
            throw ads.child("tls").child("alpn").error(tls.get().alpn() + " (expected [" + TlsConfig.H2
                    + "]: gRPC speaks HTTP/2)");
        }
        return Optional.of(new XdsConfig(node(root.required("node")), ads.string("address"),
                (int) ads.required("port").asLong(1, 65535), initial, max, tls,
                ads.integer("max_message_bytes", XdsConfig.DEFAULT_MAX_MESSAGE_BYTES, 4 * 1024 * 1024, Integer.MAX_VALUE),
                apiType(ads), sdsFiles(dynamic),
                dynamic.positiveDuration("initial_fetch_timeout", XdsConfig.DEFAULT_INITIAL_FETCH_TIMEOUT)));
    }

    /** {@code sds_files}: secrets by name, each a certificate and key or a CA file, checked as TLS files are. */
    private static Map<String, XdsConfig.FileSecret> sdsFiles(ConfigNode dynamic) {
        Map<String, XdsConfig.FileSecret> secrets = new LinkedHashMap<>();
        dynamic.optional("sds_files").ifPresent(files -> files.keys().forEach(name -> {
            ConfigNode n = files.child(name);
            TlsReader.pemFiles(n);
            secrets.put(name, n.build(() -> new XdsConfig.FileSecret(
                    n.has("cert_chain_file") ? Optional.of(new CertificateFiles(Path.of(n.string("cert_chain_file")),
                            Path.of(n.string("private_key_file")))) : Optional.empty(),
                    n.optionalString("ca_file").map(Path::of))));
        }));
        return secrets;
    }

    /** The ADS protocol of {@code api_type}: Envoy's names, {@code GRPC} (state of the world) by default. */
    private static XdsConfig.ApiType apiType(ConfigNode ads) {
        String name = ads.string("api_type", XdsConfig.ApiType.GRPC.name());
        for (XdsConfig.ApiType type : XdsConfig.ApiType.values()) {
            if (type.name().equals(name)) {
                return type;
            }
        }
        throw ads.child("api_type").error("'" + name + "' (expected one of "
                + Arrays.toString(XdsConfig.ApiType.values()) + ")");
    }

    private static XdsConfig.Node node(ConfigNode n) {
        n.allowOnly(Set.of("id", "cluster", "locality", "metadata"));
        XdsConfig.Locality locality = n.optional("locality").map(l -> {
            l.allowOnly(Set.of("region", "zone", "sub_zone"));
            return new XdsConfig.Locality(l.string("region", ""), l.string("zone", ""), l.string("sub_zone", ""));
        }).orElse(XdsConfig.Locality.NONE);
        return new XdsConfig.Node(n.string("id"), n.string("cluster"), locality, n.valueMap("metadata"));
    }
}
