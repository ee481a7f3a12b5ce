package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.server.testing.LogLines;
import io.tollgate.server.testing.ProxyHeaderRelay;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real SOFARPC consumer behind a balancer that sends a PROXY protocol header: the Bolt listener
 * reads it, its access log writes the client's address the header carried, and an RBAC policy on
 * that address lets one client's calls through and refuses another's.
 */
class SofaRpcProxyProtocolTest {

    private static final String SERVICE = EchoService.class.getName() + ":1.0";

    @TempDir
    static Path dir;
    private static final StartedResources started = new StartedResources();
    private static SofaRpc sofa;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        sofa = started.add(new SofaRpc(new EchoServiceImpl()));
        gateway = started.add(TestGateway.start("""
                listeners:
                  - name: bolt
                    protocols: [bolt]
                    proxy_protocol: { mode: required, trusted_sources: [127.0.0.1/32] }
                    access_log: { path: "${LOG}", format: "%DOWNSTREAM_REMOTE_ADDRESS% %PROTOCOL% %RPC_METHOD% %RESPONSE_CODE%" }
                    filters:
                      - name: rbac
                        policies: [ { name: documentation-net, permissions: [ { any: true } ], principals: [ { source_ip: [192.0.2.0/24] } ] } ]
                    route_config:
                      virtual_hosts:
                        - { name: echo, domains: ["${SERVICE}"], routes: [{ match: { prefix: / }, route: { cluster: provider } }] }
                clusters:
                  - name: provider
                    endpoints: [{ address: 127.0.0.1, port: ${PROVIDER} }]
                """, Map.of("PROVIDER", sofa.port(), "SERVICE", SERVICE, "LOG", dir.resolve("access.log"))));
    }

    @AfterAll
    static void stop() {
        started.close();
    }

    @Test
    void theCarriedAddressIsTheCallersInTheAccessLogAndForRbac() throws Exception {
        try (ProxyHeaderRelay allowed = new ProxyHeaderRelay(gateway.port("bolt"), header("192.0.2.7"));
                ProxyHeaderRelay denied = new ProxyHeaderRelay(gateway.port("bolt"), header("203.0.113.9"))) {
            assertThat(sofa.refer(allowed.port()).echo("hi")).isEqualTo("hi");
            assertThat(LogLines.await(dir.resolve("access.log"), 1).get(0)).isEqualTo("/192.0.2.7:56324 BOLT/1 echo 200");

            EchoService refused = sofa.refer(denied.port());
            assertThatThrownBy(() -> refused.echo("no")).as("RBAC refuses 203.0.113.9");
            assertThat(LogLines.await(dir.resolve("access.log"), 2).get(1)).startsWith("/203.0.113.9:56324 BOLT/1 echo ");
        }
    }

    private static byte[] header(String client) {
        return ("PROXY TCP4 " + client + " 198.51.100.1 56324 12200\r\n").getBytes(StandardCharsets.US_ASCII);
    }
}
