package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.TestGateway;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A listener's path normalization, end to end over HTTP/1.1 (raw bytes on a socket) and HTTP/2
 * (Netty's client): the path routed is the path forwarded, {@code /admin} answered by the gateway
 * stays unreachable through dot segments, and {@code %2F} gets what each action says. A listener
 * without normalization forwards the same paths as received.
 */
class PathNormalizationTest {

    private static final String LISTENER = """
              - name: %s
                port: 0
                protocols: [http1, h2c]
                http: %s
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - match: { prefix: /admin }
                          direct_response: { status: 403, body: "denied" }
                        - match: { prefix: / }
                          route: { cluster: app }
            """;

    private static HttpUpstream app;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        app = new HttpUpstream("app");
        StringBuilder yaml = new StringBuilder("listeners:\n");
        yaml.append(LISTENER.formatted("plain", "{}"));
        yaml.append(LISTENER.formatted("normalized", "{ normalize_path: true, merge_slashes: true }"));
        for (String action : List.of("reject_request", "unescape_and_redirect", "unescape_and_forward")) {
            yaml.append(LISTENER.formatted(action, "{ normalize_path: true, path_with_escaped_slashes_action: "
                    + action + " }"));
        }
        yaml.append("clusters:\n  - name: app\n    endpoints: [ { address: 127.0.0.1, port: ${APP} } ]\n");
        gateway = TestGateway.start(yaml.toString(), Map.of("APP", app.port()));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        app.close();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "/public/../admin/users|403",
            "/public/%2e%2e/admin|403",
            "/%2E%2E/admin|403",
            "/public/./x/../../admin|403",
            "/%61dmin|403",
    })
    void aTrickyPathIsRoutedAsItsNormalFormOverHttp1AndHttp2(String path, int status) throws Exception {
        assertThat(http1("normalized", path).status()).as("HTTP/1.1 %s", path).isEqualTo(status);
        assertThat(http2("normalized", path).status()).as("HTTP/2 %s", path).isEqualTo(String.valueOf(status));
        RawHttp.Response asReceived = http1("plain", path);
        assertThat(asReceived.status()).as("without normalization").isEqualTo(200);
        assertThat(asReceived.body()).contains("target: " + path + "\n");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "//b//c/./d|/b/c/d",
            "//admin/..//x|/x",
            "/a/b/../c?q=/../x|/a/c?q=/../x",
            "/%7Euser/%41b|/~user/Ab",
    })
    void theNormalFormIsWhatTheUpstreamGets(String path, String forwarded) throws Exception {
        assertThat(http1("normalized", path).body()).contains("target: " + forwarded + "\n");
        assertThat(http2("normalized", path).body()).contains("target: " + forwarded + "\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/a/b/c", "/a%20b/%C3%A9/", "/.well-known/x", "/a/..b/.c", "/x?y=//../z",
            "/a;v=1/b:c@d/e!$&'()*+,="})
    void aLegalPathInNormalFormIsNeverRefusedNorChanged(String path) throws Exception {
        for (String listener : List.of("normalized", "reject_request", "unescape_and_redirect", "unescape_and_forward")) {
            assertThat(http1(listener, path).body()).as("%s %s", listener, path).contains("target: " + path + "\n");
            assertThat(http2(listener, path).body()).as("%s %s over HTTP/2", listener, path)
                    .contains("target: " + path + "\n");
        }
    }

    @Test
    void anEscapedSlashIsKeptUnescapedRejectedOrRedirectedAsTheActionSays() throws Exception {
        assertThat(http1("normalized", "/a%2Fb").body()).contains("target: /a%2Fb\n");
        assertThat(http1("unescape_and_forward", "/a%2Fb%5Cc").body()).contains("target: /a/b/c\n");
        assertThat(http2("unescape_and_forward", "/x/a%2f..%2fb").body()).contains("target: /x/b\n");

        RawHttp.Response redirected = http1("unescape_and_redirect", "/x/a%2F..%2Fb?q=1");
        assertThat(redirected.status()).isEqualTo(307);
        assertThat(redirected.header("location")).isEqualTo("/x/b?q=1");
        NettyH2Client.Response redirectedH2 = http2("unescape_and_redirect", "/a%2Fb");
        assertThat(redirectedH2.status()).isEqualTo("307");
        assertThat(redirectedH2.head().get("location")).hasToString("/a/b");

        double before = gateway.count("tollgate.downstream.rq.error", "reason", "path_normalization_failed");
        try (RawHttp raw = new RawHttp(gateway.port("reject_request"))) {
            RawHttp.Response rejected = raw.send("GET /a%2fb HTTP/1.1\r\nHost: h\r\n\r\n").read();
            assertThat(rejected.status()).isEqualTo(400);
            assertThat(rejected.header("x-tollgate-error")).isEqualTo("path_normalization_failed");
            RawHttp.Response next = raw.send("GET /a/b HTTP/1.1\r\nHost: h\r\n\r\n").read();
            assertThat(next.body()).as("the connection carries on").contains("target: /a/b\n");
        }
        assertThat(http2("reject_request", "/a%5cb").status()).isEqualTo("400");
        assertThat(http1("reject_request", "/a/b?c=%2F").body()).as("the query is not the path")
                .contains("target: /a/b?c=%2F\n");
        assertThat(gateway.count("tollgate.downstream.rq.error", "reason", "path_normalization_failed") - before)
                .isEqualTo(2);
    }

    @Test
    void anEncodedNulIsRefused() throws Exception {
        assertThat(http1("normalized", "/a/.%00./b").status()).isEqualTo(400);
        assertThat(http2("normalized", "/a%00").status()).isEqualTo("400");
    }

    private static RawHttp.Response http1(String listener, String path) throws Exception {
        try (RawHttp raw = new RawHttp(gateway.port(listener))) {
            return raw.send("GET " + path + " HTTP/1.1\r\nHost: h\r\n\r\n").read();
        }
    }

    private static NettyH2Client.Response http2(String listener, String path) throws Exception {
        try (NettyH2Client client = NettyH2Client.h2c(gateway.port(listener))) {
            return client.exchange(client.head("GET", path), List.of(), null);
        }
    }
}
