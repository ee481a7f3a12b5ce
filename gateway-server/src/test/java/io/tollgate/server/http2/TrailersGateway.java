package io.tollgate.server.http2;

import io.tollgate.server.testing.TestCertificate;
import io.tollgate.server.testing.TestGateway;
import java.util.Map;

/**
 * The gateway the request-trailer tests talk to, with its two upstreams: listener {@code h2c}
 * (cleartext, HTTP/1.1 and h2c on one port) and listener {@code h2} (TLS, ALPN h2 or
 * http/1.1), each routing {@code /h2/} to an HTTP/2 upstream that echoes what it received
 * ({@link H2Upstream}) and {@code /h1/} to an HTTP/1.1 upstream that echoes the request's bytes
 * ({@link Http1WireEcho}).
 */
final class TrailersGateway implements AutoCloseable {

    private final H2Upstream h2Upstream = new H2Upstream();
    private final Http1WireEcho h1Upstream = new Http1WireEcho();
    private final TestGateway gateway;

    TrailersGateway() throws Exception {
        gateway = TestGateway.start("""
                event_loops: 1
                listeners:
                  - name: h2c
                    port: 0
                    protocols: [http1, h2c]
                    route_config: ${ROUTES}
                  - name: h2
                    port: 0
                    protocols: [http1, h2c]
                    ${TLS}
                    route_config: ${ROUTES}
                clusters:
                  - name: h2
                    protocol: h2
                    endpoints: [ { address: 127.0.0.1, port: ${H2} } ]
                  - name: h1
                    endpoints: [ { address: 127.0.0.1, port: ${H1} } ]
                """, Map.of("H2", h2Upstream.port(), "H1", h1Upstream.port(), "TLS", TestCertificate.tlsBlock(""),
                "ROUTES", "{ virtual_hosts: [ { name: all, domains: ['*'], routes: ["
                        + "{ match: { prefix: /h2/ }, route: { cluster: h2, timeout: 10s } },"
                        + "{ match: { prefix: /h1/ }, route: { cluster: h1, timeout: 10s } } ] } ] }"));
    }

    int port(String listener) {
        return gateway.port(listener);
    }

    @Override
    public void close() throws Exception {
        gateway.close();
        h2Upstream.close();
        h1Upstream.close();
    }
}
