package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.LogLines;
import io.tollgate.server.testing.ProxyHeaderRelay;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Dubbo consumer behind a balancer that sends a PROXY protocol v2 header: the Dubbo
 * listener reads it and its access log writes the client's address the header carried.
 */
class DubboProxyProtocolTest {

    private static final String INTERFACE = DubboEchoService.class.getName();
    private static final byte[] V2_HEADER = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A,
        0x21, 0x11, 0x00, 0x0C, (byte) 192, 0, 2, 7, (byte) 198, 51, 100, 1, (byte) 0xDC, 0x04, 0x50, (byte) 0xFA};

    @TempDir
    static Path dir;
    private static final StartedResources started = new StartedResources();
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        DubboProvider main = started.add(DubboProvider.named("main").start());
        gateway = started.add(TestGateway.start("""
                listeners:
                  - name: dubbo
                    protocols: [dubbo]
                    proxy_protocol: { mode: required, trusted_sources: [127.0.0.1/32] }
                    access_log: { path: "${LOG}", format: "%DOWNSTREAM_REMOTE_ADDRESS% %PROTOCOL% %RPC_METHOD% %RESPONSE_CODE%" }
                    route_config:
                      virtual_hosts:
                        - { name: echo, domains: ["${INTERFACE}"], routes: [{ match: { prefix: / }, route: { cluster: main } }] }
                clusters:
                  - name: main
                    endpoints: [{ address: 127.0.0.1, port: ${MAIN} }]
                """, Map.of("INTERFACE", INTERFACE, "MAIN", main.port(), "LOG", dir.resolve("access.log"))));
    }

    @AfterAll
    static void stop() {
        started.close();
    }

    @Test
    void theAccessLogWritesTheAddressTheV2HeaderCarried() throws Exception {
        try (ProxyHeaderRelay relay = new ProxyHeaderRelay(gateway.port("dubbo"), V2_HEADER);
                DubboConsumer consumer = DubboConsumer.to(relay.port()).connect()) {
            assertThat(consumer.service().echo("hi")).isEqualTo("hi");
        }
        assertThat(LogLines.await(dir.resolve("access.log"), 1).get(0)).isEqualTo("/192.0.2.7:56324 DUBBO echo 200");
    }
}
