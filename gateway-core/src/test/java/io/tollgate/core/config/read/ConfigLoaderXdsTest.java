package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.TlsConfig;
import io.tollgate.core.config.UpstreamTlsConfig;
import io.tollgate.core.config.XdsConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConfigLoaderXdsTest {

    @Test
    void readsTheNodeAndTheAdsControlPlane() {
        GatewayConfig config = ConfigLoader.parse("""
                node:
                  id: tollgate-1
                  cluster: ingress
                  locality: { region: eu, zone: eu-1a, sub_zone: rack-7 }
                  metadata: { team: edge }
                dynamic_resources:
                  ads_config: { address: 127.0.0.1, port: 18000, initial_backoff: 100ms, max_backoff: 5s }
                """);

        assertThat(config.xds()).contains(new XdsConfig(
                new XdsConfig.Node("tollgate-1", "ingress", new XdsConfig.Locality("eu", "eu-1a", "rack-7"),
                        Map.of("team", "edge")),
                "127.0.0.1", 18000, Duration.ofMillis(100), Duration.ofSeconds(5), Optional.empty(),
                XdsConfig.DEFAULT_MAX_MESSAGE_BYTES, XdsConfig.ApiType.GRPC));
        assertThat(config.listeners()).isEmpty();
    }

    @Test
    void defaultsTheBackoffAndTheLocality() {
        XdsConfig xds = ConfigLoader.parse("""
                node: { id: a, cluster: b }
                dynamic_resources: { ads_config: { address: cp.example, port: 18000 } }
                """).xds().orElseThrow();

        assertThat(xds.initialBackoff()).isEqualTo(XdsConfig.DEFAULT_INITIAL_BACKOFF);
        assertThat(xds.maxBackoff()).isEqualTo(XdsConfig.DEFAULT_MAX_BACKOFF);
        assertThat(xds.maxMessageBytes()).isEqualTo(64 * 1024 * 1024);
        assertThat(xds.node().locality()).isEqualTo(XdsConfig.Locality.NONE);
        assertThat(xds.apiType()).isEqualTo(XdsConfig.ApiType.GRPC);
        assertThat(xds.initialFetchTimeout()).isEqualTo(Duration.ofSeconds(15));
    }

    @Test
    void theInitialFetchTimeoutIsReadAndMustBePositive() {
        XdsConfig xds = ConfigLoader.parse("""
                node: { id: a, cluster: b }
                dynamic_resources: { ads_config: { address: cp.example, port: 18000 }, initial_fetch_timeout: 2500ms }
                """).xds().orElseThrow();
        assertThat(xds.initialFetchTimeout()).isEqualTo(Duration.ofMillis(2500));

        assertThatThrownBy(() -> ConfigLoader.parse("""
                node: { id: a, cluster: b }
                dynamic_resources: { ads_config: { address: cp.example, port: 18000 }, initial_fetch_timeout: 0s }
                """)).isInstanceOf(ConfigException.class).hasMessageContaining("dynamic_resources.initial_fetch_timeout");
    }

    @Test
    void theApiTypeChoosesIncrementalXdsAsEnvoyNamesIt() {
        XdsConfig xds = ConfigLoader.parse("""
                node: { id: a, cluster: b }
                dynamic_resources: { ads_config: { address: 127.0.0.1, port: 18000, api_type: DELTA_GRPC } }
                """).xds().orElseThrow();

        assertThat(xds.apiType()).isEqualTo(XdsConfig.ApiType.DELTA_GRPC);
        assertThatThrownBy(() -> ConfigLoader.parse("""
                node: { id: a, cluster: b }
                dynamic_resources: { ads_config: { address: 127.0.0.1, port: 18000, api_type: REST } }
                """)).isInstanceOf(ConfigException.class)
                .hasMessage("dynamic_resources.ads_config.api_type: 'REST' (expected one of [GRPC, DELTA_GRPC])");
    }

    @Test
    void theStreamMayBeTlsWithTheClustersTlsSettingsAndHttp2() {
        XdsConfig xds = ConfigLoader.parse("""
                node: { id: a, cluster: b }
                dynamic_resources:
                  ads_config:
                    address: 127.0.0.1
                    port: 18000
                    tls: { sni: cp.example, insecure_skip_verify: true }
                """).xds().orElseThrow();

        assertThat(xds.tls()).contains(new UpstreamTlsConfig(Optional.of("cp.example"), Optional.empty(), Optional.empty(),
                List.of(TlsConfig.H2)));
        assertThatThrownBy(() -> ConfigLoader.parse("""
                node: { id: a, cluster: b }
                dynamic_resources:
                  ads_config: { address: 127.0.0.1, port: 18000, tls: { insecure_skip_verify: true, alpn: [http/1.1] } }
                """)).hasMessageStartingWith("dynamic_resources.ads_config.tls.alpn: [http/1.1] (expected [h2]");
        assertThatThrownBy(() -> ConfigLoader.parse("""
                node: { id: a, cluster: b }
                dynamic_resources: { ads_config: { address: 127.0.0.1, port: 18000, tls: {} } }
                """)).hasMessageStartingWith("dynamic_resources.ads_config.tls: needs ca_file");
    }

    @Test
    void staticRoutesMayNameClustersTheControlPlaneWillSend() {
        GatewayConfig config = ConfigLoader.parse("""
                node: { id: a, cluster: b }
                dynamic_resources: { ads_config: { address: 127.0.0.1, port: 18000 } }
                listeners:
                  - name: web
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes: [{ match: { prefix: / }, route: { cluster: from-cds } }]
                """);

        assertThat(config.listeners()).hasSize(1);
    }

    @Test
    void rejectsABadBootstrapNamingTheField() {
        assertThatThrownBy(() -> ConfigLoader.parse("""
                dynamic_resources: { ads_config: { address: 127.0.0.1, port: 18000 } }
                """)).isInstanceOf(ConfigException.class).hasMessageStartingWith("node: ");
        assertThatThrownBy(() -> ConfigLoader.parse("""
                node: { cluster: b }
                dynamic_resources: { ads_config: { address: 127.0.0.1, port: 18000 } }
                """)).hasMessageStartingWith("node.id: ");
        assertThatThrownBy(() -> ConfigLoader.parse("""
                node: { id: a, cluster: b }
                dynamic_resources: { ads_config: { address: 127.0.0.1, port: 0 } }
                """)).hasMessageStartingWith("dynamic_resources.ads_config.port: ");
        assertThatThrownBy(() -> ConfigLoader.parse("""
                node: { id: a, cluster: b }
                dynamic_resources: { ads_config: { address: 127.0.0.1, port: 1, initial_backoff: 2s, max_backoff: 1s } }
                """)).hasMessageStartingWith("dynamic_resources.ads_config.max_backoff: ");
        assertThatThrownBy(() -> ConfigLoader.parse("""
                node: { id: a, cluster: b }
                dynamic_resources: { lds_config: {}, ads_config: { address: 127.0.0.1, port: 1 } }
                """)).hasMessageStartingWith("dynamic_resources.lds_config: unknown field");
        assertThatThrownBy(() -> ConfigLoader.parse("""
                node: { id: a, cluster: b }
                """)).hasMessageStartingWith("node: is only used with dynamic_resources");
    }

    @Test
    void secretsFromFilesNameTheirFilesAndEachIsACertificateOrCas() {
        assertThatThrownBy(() -> ConfigLoader.parse("""
                node: { id: a, cluster: b }
                dynamic_resources:
                  ads_config: { address: 127.0.0.1, port: 18000 }
                  sds_files:
                    default: { cert_chain_file: /nonexistent/cert-chain.pem, private_key_file: /nonexistent/key.pem }
                """)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("dynamic_resources.sds_files.default.cert_chain_file: ");
        assertThatThrownBy(() -> ConfigLoader.parse("""
                node: { id: a, cluster: b }
                dynamic_resources:
                  ads_config: { address: 127.0.0.1, port: 18000 }
                  sds_files: { ROOTCA: {} }
                """)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("dynamic_resources.sds_files.ROOTCA: needs cert_chain_file and private_key_file,"
                        + " or ca_file");
        assertThat(ConfigLoader.parse("""
                node: { id: a, cluster: b }
                dynamic_resources: { ads_config: { address: 127.0.0.1, port: 18000 } }
                """).xds().orElseThrow().sdsFiles()).isEmpty();
    }

    @Test
    void aClustersSubjectAltNamesNeedItsCasAndItsMatchLabelsChooseTheHostsInTls() {
        assertThatThrownBy(() -> ConfigLoader.parse("""
                clusters:
                  - name: app
                    tls: { insecure_skip_verify: true, subject_alt_names: [spiffe://cluster.local/ns/a/sa/b] }
                    endpoints: [ { address: 127.0.0.1, port: 8080 } ]
                """)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("clusters[0].tls.subject_alt_names: needs ca_file");
        UpstreamTlsConfig tls = ConfigLoader.parse("""
                clusters:
                  - name: app
                    tls: { insecure_skip_verify: true, match_labels: { tlsMode: istio } }
                    endpoints: [ { address: 127.0.0.1, port: 8080 } ]
                """).clusters().get(0).tls().orElseThrow();
        assertThat(tls.appliesTo(Map.of("tlsMode", "istio", "app", "x"))).isTrue();
        assertThat(tls.appliesTo(Map.of("app", "x"))).isFalse();
    }
}
