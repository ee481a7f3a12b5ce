package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.remoting.BizContext;
import com.alipay.remoting.rpc.RpcClient;
import com.alipay.remoting.rpc.RpcServer;
import com.alipay.remoting.rpc.protocol.SyncUserProcessor;
import io.tollgate.router.host.Host;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.TestGateway;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Outlier detection for Bolt: two real sofa-bolt providers behind the gateway, one of which
 * answers every call with a server exception (status 2); the gateway ejects it and every later
 * call reaches the healthy one.
 */
class BoltOutlierDetectionTest {

    private static final String CONFIG = BoltConfigs.everyServiceTo("providers", """
              - name: providers
                outlier_detection: { consecutive_5xx: 3, interval: 50ms, base_ejection_time: 1m, max_ejection_percent: 50 }
                endpoints: [{ address: 127.0.0.1, port: ${HEALTHY} }, { address: 127.0.0.1, port: ${FAILING} }]
            """);

    private RpcServer healthy;
    private RpcServer failing;
    private RpcClient client;
    private TestGateway gateway;

    @BeforeEach
    void start() throws Exception {
        healthy = provider(false);
        failing = provider(true);
        gateway = TestGateway.start(CONFIG, Map.of("HEALTHY", healthy.port(), "FAILING", failing.port()));
        client = new RpcClient();
        client.startup();
    }

    @AfterEach
    void stop() {
        client.shutdown();
        gateway.close();
        healthy.shutdown();
        failing.shutdown();
    }

    @Test
    void providerAnsweringServerExceptionsIsEjectedAndCallsGoToTheHealthyOne() throws Exception {
        Host failingHost = gateway.host("providers", failing.port());
        String address = "127.0.0.1:" + gateway.port("bolt");
        int failures = 0;
        for (int i = 0; i < 100 && failures < 3; i++) {
            try {
                client.invokeSync(address, "call " + i, 3000);
            } catch (Exception serverException) {
                failures++;
            }
        }

        // had two failures ejected the provider, no third would have come
        assertThat(failures).isEqualTo(3);
        // the third failure hands the ejection to the control thread, which then republishes the
        // hosts the event loops read (as Envoy's main thread does): it needs no further call
        Await.until("the failing provider ejected and out of rotation", Duration.ofSeconds(10),
                () -> failingHost.ejected() && !gateway.inRotation("providers").contains(failingHost.id()));
        for (int i = 0; i < 20; i++) {
            assertThat(client.invokeSync(address, "after " + i, 3000)).isEqualTo("healthy:after " + i);
        }
        assertThat(gateway.count("tollgate.upstream.outlier.ejections", "cluster", "providers")).isEqualTo(1);
    }

    private static RpcServer provider(boolean fails) throws IOException {
        RpcServer server = new RpcServer("127.0.0.1", FreePort.pick(), false);
        server.registerUserProcessor(new SyncUserProcessor<String>() {
            @Override
            public Object handleRequest(BizContext context, String request) {
                if (fails) {
                    throw new IllegalStateException("failing on purpose: " + request);
                }
                return "healthy:" + request;
            }

            @Override
            public String interest() {
                return String.class.getName();
            }
        });
        server.startup();
        return server;
    }
}
