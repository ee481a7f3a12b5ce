package io.tollgate.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.RawHttp;
import io.tollgate.server.testing.RawUpstream;
import io.tollgate.server.testing.TestGateway;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Request bodies whose framing breaks or that outgrow the limit mid-stream: a malformed chunk
 * never reaches the upstream as a complete request (400 before any response, the connection
 * closed), and a body refused after the response began aborts that response instead of writing a
 * second one after it.
 */
class Http1BodyFramingTest {

    private static final String CONFIG = """
            event_loops: 1
            listeners:
              - name: http
                port: 0
                http: { max_request_body_bytes: 1000 }
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - { match: { prefix: /complete }, route: { cluster: complete } }
                        - { match: { prefix: /eager }, route: { cluster: eager } }
            clusters:
              - name: complete
                endpoints: [ { address: 127.0.0.1, port: ${COMPLETE} } ]
              - name: eager
                endpoints: [ { address: 127.0.0.1, port: ${EAGER} } ]
            """;

    private static RawUpstream complete;
    private static RawUpstream eager;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        // answers 200 only once it read a whole chunked body, as an upstream would
        complete = new RawUpstream(socket -> {
            InputStream in = socket.getInputStream();
            readUntil(in, "\r\n\r\n");
            readUntil(in, "0\r\n\r\n");
            socket.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\ncomplete"
                    .getBytes(StandardCharsets.US_ASCII));
            in.read();
        });
        // starts its response as soon as the head is in, then reads the body
        eager = new RawUpstream(socket -> {
            InputStream in = socket.getInputStream();
            readUntil(in, "\r\n\r\n");
            OutputStream out = socket.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            readUntil(in, "0\r\n\r\n");
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            in.read();
        });
        gateway = TestGateway.start(CONFIG, Map.of("COMPLETE", complete.port(), "EAGER", eager.port()));
    }

    @AfterAll
    static void stop() throws IOException {
        gateway.close();
        complete.close();
        eager.close();
    }

    @Test
    void chunkSizeThatIsNotHexIsRefusedAndNeverCompletedUpstream() throws Exception {
        assertRefused("zz\r\nabc\r\n0\r\n\r\n");
    }

    @Test
    void chunkSizeThatOverflowsIsRefusedAndNeverCompletedUpstream() throws Exception {
        assertRefused("3\r\nabc\r\n10000000000000003\r\nabc\r\n0\r\n\r\n");
    }

    @Test
    void bodyOverTheLimitAfterTheResponseBeganAbortsItWithoutASecondResponse() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", gateway.port("http"))) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /eager HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1f4\r\n" + "a".repeat(500)
                    + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String begun = readUntil(socket.getInputStream(), "hello\r\n");
            assertThat(begun).startsWith("HTTP/1.1 200 ");
            out.write(("258\r\n" + "b".repeat(600) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String rest = readToEnd(socket.getInputStream());
            assertThat(rest).doesNotContain("HTTP/1.1").doesNotContain("413");
        }
        assertThat(gateway.count("tollgate.downstream.rq.error", "reason", "body_too_large")).isEqualTo(1);
    }

    @Test
    void malformedChunkAfterTheResponseBeganAbortsIt() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", gateway.port("http"))) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write("POST /eager HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            readUntil(socket.getInputStream(), "hello\r\n");
            out.write("zz\r\nabc\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String rest = readToEnd(socket.getInputStream());
            assertThat(rest).as("no end of the chunked response: it was cut").doesNotContain("0\r\n\r\n")
                    .doesNotContain("HTTP/1.1");
        }
    }

    /** Sends a chunked POST whose body is {@code chunks}; expects 400, then the connection closed. */
    private static void assertRefused(String chunks) throws IOException {
        double before = gateway.count("tollgate.downstream.rq.error", "reason", "bad_request_body");
        try (RawHttp client = new RawHttp(gateway.port("http"))) {
            RawHttp.Response response = client.send("POST /complete HTTP/1.1\r\nHost: x\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n" + chunks).read(false);
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.header("x-tollgate-error")).isEqualTo("bad_request_body");
            assertThat(response.header("connection")).isEqualTo("close");
        }
        assertThat(gateway.count("tollgate.downstream.rq.error", "reason", "bad_request_body")).isEqualTo(before + 1);
    }

    /** Reads until {@code end} was read and returns everything read. */
    private static String readUntil(InputStream in, String end) throws IOException {
        StringBuilder read = new StringBuilder();
        int b;
        while (read.indexOf(end) < 0 && (b = in.read()) >= 0) {
            read.append((char) b);
        }
        return read.toString();
    }

    /** Reads until the gateway closes the connection (a reset counts as closed). */
    private static String readToEnd(InputStream in) throws IOException {
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                read.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("still open; read " + read, e);
        } catch (IOException reset) {
            // closed with a reset
        }
        return read.toString(StandardCharsets.US_ASCII);
    }
}
