package io.tollgate.server;

import static io.tollgate.server.EnvoyResources.rdsListener;
import static io.tollgate.server.EnvoyResources.routes;
import static io.tollgate.server.XdsTestBed.LIMIT;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Duration;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.tollgate.server.dns.TestDnsServer;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.HttpUpstream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A {@code STRICT_DNS} cluster pushed by a real xDS control plane: the gateway resolves its name
 * with the cluster's {@code dns_resolvers} (a real DNS server over UDP) and follows the answer.
 */
class XdsDnsClusterTest {

    @RegisterExtension
    final XdsTestBed bed = new XdsTestBed();

    @Test
    void aStrictDnsClusterFromTheControlPlaneResolvesItsNameAndFollowsTheAnswer() throws Exception {
        try (TestDnsServer dns = new TestDnsServer()) {
            int port = bed.upstream("a");
            try (HttpUpstream b = new HttpUpstream("b", "127.0.0.2", port)) {
                dns.set("app.test", 60, "127.0.0.1");
                String[] server = dns.address().split(":");
                Cluster cluster = Cluster.newBuilder().setName("app").setType(Cluster.DiscoveryType.STRICT_DNS)
                        .setLoadAssignment(ClusterLoadAssignment.newBuilder().setClusterName("app")
                                .addEndpoints(LocalityLbEndpoints.newBuilder().addLbEndpoints(LbEndpoint.newBuilder()
                                        .setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder()
                                                .setSocketAddress(SocketAddress.newBuilder().setAddress("app.test")
                                                        .setPortValue(port)))))))
                        .setDnsRefreshRate(Duration.newBuilder().setNanos(100_000_000))
                        .setDnsLookupFamily(Cluster.DnsLookupFamily.V4_ONLY)
                        .addDnsResolvers(Address.newBuilder().setSocketAddress(SocketAddress.newBuilder()
                                .setAddress(server[0]).setPortValue(Integer.parseInt(server[1]))))
                        .build();
                bed.startControlPlane();
                bed.controlPlane.push("1", List.of(cluster), List.of(), List.of(rdsListener("web", 0, "web-routes")),
                        List.of(routes("web-routes", Map.of("/", "app"))));
                bed.startGateway();

                Await.until("served at 127.0.0.1", LIMIT, () -> "a".equals(bed.upstreamAt("/x")));
                assertThat(dns.questions("app.test")).isPositive();

                dns.set("app.test", 60, "127.0.0.2");
                Await.until("served at 127.0.0.2", LIMIT, () -> "b".equals(bed.upstreamAt("/y")));
            }
        }
    }
}
