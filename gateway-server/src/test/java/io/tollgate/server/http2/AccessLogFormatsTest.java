package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.LogLines;
import io.tollgate.server.testing.TestGateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configured access log formats over HTTP/1.1 (JDK HttpClient) and gRPC (grpc-java over h2c)
 * through the running gateway: a format string on one listener, a JSON format on another, read
 * back from the log files.
 */
class AccessLogFormatsTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: text
                port: 0
                protocols: [http1, h2c]
                access_log:
                  path: "${TEXT_LOG}"
                  format: "%PROTOCOL% %REQ(:METHOD)% %REQ(:PATH)% %RESPONSE_CODE% %REQ(x-tag?user-agent):12% %RESP(x-upstream)% %TRAILER(grpc-status)% %RPC_SERVICE% %RPC_METHOD% %ROUTE_NAME% %UPSTREAM_CLUSTER% %START_TIME(%s)%"
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - { name: grpc, match: { prefix: /test.Echo/ }, route: { cluster: grpc, timeout: 30s } }
                        - { name: web, match: { prefix: / }, route: { cluster: web } }
              - name: json
                port: 0
                protocols: [http1, h2c]
                access_log:
                  path: "${JSON_LOG}"
                  json_format:
                    protocol: "%PROTOCOL%"
                    status: "%RESPONSE_CODE%"
                    bytes_sent: "%BYTES_SENT%"
                    tag: "%REQ(x-tag)%"
                    service: "%RPC_SERVICE%"
                    method: "%RPC_METHOD%"
                    grpc_status: "%TRAILER(grpc-status)%"
                    upstream: "%UPSTREAM_HOST%"
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - { name: grpc, match: { prefix: /test.Echo/ }, route: { cluster: grpc, timeout: 30s } }
                        - { name: web, match: { prefix: / }, route: { cluster: web } }
            clusters:
              - name: web
                endpoints: [ { address: 127.0.0.1, port: ${WEB} } ]
              - name: grpc
                protocol: h2
                endpoints: [ { address: 127.0.0.1, port: ${GRPC} } ]
            """;

    @TempDir
    static Path dir;
    private static HttpUpstream web;
    private static EchoServer grpc;
    private static TestGateway gateway;
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() throws Exception {
        web = new HttpUpstream("web-1");
        grpc = new EchoServer();
        gateway = TestGateway.start(CONFIG, Map.of("TEXT_LOG", dir.resolve("text.log"),
                "JSON_LOG", dir.resolve("json.log"), "WEB", web.port(), "GRPC", grpc.port()));
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        web.close();
        grpc.close();
    }

    @Test
    void formatStringWritesTheHeadersItNamesForHttp1() throws Exception {
        HttpResponse<String> response = get("text", "/page?q=1", "first-http1-tag-is-long");
        assertThat(response.statusCode()).isEqualTo(200);

        String line = awaitLine(dir.resolve("text.log"), "/page?q=1");
        long now = System.currentTimeMillis() / 1000;
        assertThat(line).startsWith("HTTP/1.1 GET /page?q=1 200 first-http1- web-1 - - - web web ");
        assertThat(Long.parseLong(line.substring(line.lastIndexOf(' ') + 1))).isBetween(now - 60, now);
    }

    @Test
    void formatStringNamesTheGrpcServiceMethodAndTrailer() throws Exception {
        ManagedChannel channel = channel("text");
        try {
            Metadata headers = new Metadata();
            headers.put(Metadata.Key.of("x-tag", Metadata.ASCII_STRING_MARSHALLER), "grpc-text");
            Channel tagged = ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
            assertThat(ClientCalls.blockingUnaryCall(tagged, EchoGrpc.UNARY,
                    CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS), "hi")).isEqualTo("hi");
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }

        String line = awaitLine(dir.resolve("text.log"), "/test.Echo/Unary");
        assertThat(line).startsWith("HTTP/2.0 POST /test.Echo/Unary 200 grpc-text - 0 test.Echo Unary grpc grpc ");
    }

    @Test
    void jsonFormatWritesOneObjectPerRequest() throws Exception {
        get("json", "/json-page", "json \"quoted\" tag");
        ManagedChannel channel = channel("json");
        try {
            ClientCalls.blockingUnaryCall(channel.newCall(EchoGrpc.UNARY, CallOptions.DEFAULT
                    .withDeadlineAfter(20, TimeUnit.SECONDS)), "hi");
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }

        List<String> lines = LogLines.await(dir.resolve("json.log"), 2);
        ObjectMapper mapper = new ObjectMapper();
        JsonNode page = null;
        JsonNode call = null;
        for (String line : lines) {
            JsonNode node = mapper.readTree(line);
            if (node.get("protocol").asText().equals("HTTP/1.1")) {
                page = node;
            } else {
                call = node;
            }
        }
        assertThat(page.get("status").isInt()).isTrue();
        assertThat(page.get("status").asInt()).isEqualTo(200);
        assertThat(page.get("bytes_sent").asLong()).isPositive();
        assertThat(page.get("tag").asText()).isEqualTo("json \"quoted\" tag");
        assertThat(page.get("service").isNull()).isTrue();
        assertThat(page.get("upstream").asText()).isEqualTo("127.0.0.1:" + web.port());
        assertThat(call.get("protocol").asText()).isEqualTo("HTTP/2.0");
        assertThat(call.get("service").asText()).isEqualTo("test.Echo");
        assertThat(call.get("method").asText()).isEqualTo("Unary");
        assertThat(call.get("grpc_status").asText()).isEqualTo("0");
        assertThat(call.get("tag").isNull()).isTrue();
    }

    private static HttpResponse<String> get(String listener, String path, String tag) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port(listener) + path))
                .header("x-tag", tag).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static ManagedChannel channel(String listener) {
        return Grpc.newChannelBuilderForAddress("127.0.0.1", gateway.port(listener), InsecureChannelCredentials.create())
                .build();
    }

    private static String awaitLine(Path log, String containing) throws InterruptedException {
        return LogLines.await(log, l -> l.contains(containing));
    }
}
