package io.tollgate.server.listener;

import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.util.HashMap;
import java.util.Map;

/**
 * A gateway for the limits tests and the upstream it sends everything to: routes that send every
 * request to the cluster {@code echo}, and that cluster on an {@link HttpUpstream}. A test's YAML
 * writes {@code route_config: ${ROUTES}} in each listener and ends with {@link #CLUSTERS}.
 */
final class EchoGateway implements AutoCloseable {

    /** The {@code clusters} block: {@code echo} on port {@code ${ECHO}}. */
    static final String CLUSTERS = """
            clusters:
              - name: echo
                endpoints: [ { address: 127.0.0.1, port: ${ECHO} } ]
            """;

    private static final String ROUTES =
            "{ virtual_hosts: [ { name: all, domains: ['*'], routes: [ { match: { prefix: / }, route: { cluster: echo } } ] } ] }";

    private final HttpUpstream echo;
    private final TestGateway gateway;

    private EchoGateway(HttpUpstream echo, TestGateway gateway) {
        this.echo = echo;
        this.gateway = gateway;
    }

    /**
     * Starts the upstream and a gateway on {@code yaml}, whose {@code ${ROUTES}} and {@code ${ECHO}}
     * are filled in, and then the further key and value pairs of {@code more}.
     */
    static EchoGateway start(String yaml, Object... more) throws Exception {
        HttpUpstream echo = new HttpUpstream("echo");
        Map<String, Object> values = new HashMap<>(Map.of("ROUTES", ROUTES, "ECHO", echo.port()));
        for (int i = 0; i < more.length; i += 2) {
            values.put((String) more[i], more[i + 1]);
        }
        try {
            return new EchoGateway(echo, TestGateway.start(yaml, values));
        } catch (RuntimeException | InterruptedException e) {
            echo.close();
            throw e;
        }
    }

    TestGateway gateway() {
        return gateway;
    }

    @Override
    public void close() {
        gateway.close();
        echo.close();
    }
}
