package io.tollgate.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alipay.remoting.BizContext;
import com.alipay.remoting.rpc.RpcClient;
import com.alipay.remoting.rpc.RpcServer;
import com.alipay.remoting.rpc.protocol.SyncUserProcessor;
import io.tollgate.core.metrics.MetricNames;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.TestGateway;
import io.tollgate.server.testing.TestPki;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bolt upstream connections over TLS: a sofa-bolt {@link RpcClient} calls an edge gateway whose
 * cluster speaks TLS to a second gateway's TLS Bolt listener (verified against the test CA by the
 * address 127.0.0.1, with a client certificate that listener requires), which forwards in
 * cleartext to a sofa-bolt {@link RpcServer}. A cluster trusting another CA gets no answer through.
 */
class BoltOverTlsTest {

    private static final String INNER = """
            event_loops: 1
            listeners:
              - name: bolt-tls
                protocols: [bolt]
                tls:
                  cert_chain_file: ${CERT}
                  private_key_file: ${KEY}
                  client_auth: { ca_file: ${CA} }
                route_config: ${ROUTES}
            clusters:
              - name: rpc
                endpoints: [{ address: 127.0.0.1, port: ${RPC} }]
            """;
    private static final String EDGE = """
            event_loops: 1
            listeners:
              - name: bolt
                protocols: [bolt]
                route_config: ${ROUTES}
              - name: bolt-wrong-ca
                protocols: [bolt]
                route_config: ${ROUTES_WRONG}
            clusters:
              - name: rpc
                tls: { ca_file: ${CA}, cert_chain_file: ${CLIENT_CERT}, private_key_file: ${CLIENT_KEY} }
                endpoints: [{ address: 127.0.0.1, port: ${INNER} }]
              - name: wrong-ca
                tls: { ca_file: ${OTHER_CA}, cert_chain_file: ${CLIENT_CERT}, private_key_file: ${CLIENT_KEY} }
                endpoints: [{ address: 127.0.0.1, port: ${INNER} }]
            """;
    private static final String ROUTES = "{ virtual_hosts: [ { name: all, domains: ['*'], routes: ["
            + " { match: { prefix: / }, route: { cluster: rpc, timeout: 5s } } ] } ] }";

    private static RpcServer server;
    private static RpcClient client;
    private static TestGateway inner;
    private static TestGateway edge;

    @BeforeAll
    static void start() throws Exception {
        int rpcPort = FreePort.pick();
        server = new RpcServer("127.0.0.1", rpcPort, false);
        server.registerUserProcessor(new SyncUserProcessor<String>() {
            @Override
            public Object handleRequest(BizContext context, String request) {
                return "echo:" + request;
            }

            @Override
            public String interest() {
                return String.class.getName();
            }
        });
        server.startup();
        inner = TestGateway.start(INNER, Map.of("CERT", TestPki.cert("localhost"), "KEY", TestPki.key("localhost"),
                "CA", TestPki.cert("ca"), "RPC", rpcPort, "ROUTES", ROUTES));
        edge = TestGateway.start(EDGE, Map.of("CA", TestPki.cert("ca"), "OTHER_CA", TestPki.cert("other-ca"),
                "CLIENT_CERT", TestPki.cert("client"), "CLIENT_KEY", TestPki.key("client"),
                "INNER", inner.port("bolt-tls"), "ROUTES", ROUTES, "ROUTES_WRONG", ROUTES.replace("rpc", "wrong-ca")));
        client = new RpcClient();
        client.startup();
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.shutdown();
        }
        if (edge != null) {
            edge.close();
        }
        if (inner != null) {
            inner.close();
        }
        server.shutdown();
    }

    @Test
    void boltCallsTravelOverTlsToTheUpstream() throws Exception {
        assertThat(client.invokeSync("127.0.0.1:" + edge.port("bolt"), "over-tls", 5000)).isEqualTo("echo:over-tls");
    }

    @Test
    void upstreamCertificateFromAnotherCaFailsTheCallAndIsCounted() {
        double before = edge.count(MetricNames.UPSTREAM_CX_CONNECT_FAIL, MetricNames.TAG_CLUSTER, "wrong-ca");

        assertThatThrownBy(
                () -> client.invokeSync("127.0.0.1:" + edge.port("bolt-wrong-ca"), "refused", 5000));
        assertThat(edge.count(MetricNames.UPSTREAM_CX_CONNECT_FAIL, MetricNames.TAG_CLUSTER, "wrong-ca"))
                .isGreaterThan(before);
    }
}
