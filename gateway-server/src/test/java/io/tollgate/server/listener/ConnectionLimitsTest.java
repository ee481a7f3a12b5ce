package io.tollgate.server.listener;

import static io.tollgate.server.listener.ConnectionTimeoutsTest.assertClosedWithin;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.TestGateway;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A listener's {@code max_connections} and the process's {@code overload.max_connections}: past
 * either, a new connection is closed at once and counted, while those already open are served;
 * once one closes, a new one is admitted again.
 */
class ConnectionLimitsTest {

    private static final String CONFIG = """
            event_loops: 1
            overload: { max_connections: 4 }
            listeners:
              - name: small
                port: 0
                max_connections: 2
                route_config: ${ROUTES}
              - name: large
                port: 0
                route_config: ${ROUTES}
            """ + EchoGateway.CLUSTERS;

    private final List<AutoCloseable> clients = new ArrayList<>();
    private EchoGateway started;
    private TestGateway gateway;

    @BeforeEach
    void start() throws Exception {
        started = EchoGateway.start(CONFIG);
        gateway = started.gateway();
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable client : clients) {
            client.close();
        }
        started.close();
    }

    @Test
    void listenerClosesConnectionsPastItsLimitAndAdmitsAgainOnceOneCloses() throws Exception {
        RawHttp first = served("small");
        served("small");
        try (Socket third = new Socket("127.0.0.1", gateway.port("small"))) {
            assertClosedWithin(third, Duration.ofSeconds(5));
        }
        assertThat(rejected("small", "max_connections")).isEqualTo(1);
        assertThat(first.send("GET /again HTTP/1.1\r\nHost: a\r\n\r\n").read(false).status()).isEqualTo(200);

        first.close();
        Await.until("a connection admitted again", Duration.ofSeconds(5), () -> {
            try (RawHttp again = new RawHttp(gateway.port("small"))) {
                return again.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n").read(false).status() == 200;
            } catch (Exception refused) {
                return false;
            }
        });
    }

    @Test
    void processClosesConnectionsPastItsLimitOnEveryListener() throws Exception {
        served("small");
        served("large");
        served("large");
        served("large");
        try (Socket fifth = new Socket("127.0.0.1", gateway.port("large"))) {
            assertClosedWithin(fifth, Duration.ofSeconds(5));
        }
        assertThat(rejected("large", "process_max_connections")).isEqualTo(1);
    }

    /** A new client on {@code listener} whose first request was answered 200. */
    private RawHttp served(String listener) throws Exception {
        RawHttp client = new RawHttp(gateway.port(listener));
        clients.add(client);
        assertThat(client.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n").read(false).status()).isEqualTo(200);
        return client;
    }

    private double rejected(String listener, String reason) {
        return gateway.count("tollgate.downstream.cx.rejected", "listener", listener, "reason", reason);
    }
}
