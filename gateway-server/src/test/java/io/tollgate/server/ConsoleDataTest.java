package io.tollgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.FreePort;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The console's data over real sockets, as a script reads it: its files with a strict
 * Content-Security-Policy, the server-sent-events stream carrying each second's sample and the
 * finished requests, the access-log tail and its filters, and the tap the event loops feed only
 * while someone watches.
 */
class ConsoleDataTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private HttpUpstream upstream;
    private HttpUpstream failing;
    private TestGateway gateway;

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (upstream != null) {
            upstream.close();
        }
        if (failing != null) {
            failing.close();
        }
    }

    @Test
    void theConsoleIsServedFromTheJarUnderAStrictContentSecurityPolicy() throws Exception {
        start();
        HttpResponse<String> page = admin("/ui");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
        assertThat(page.headers().firstValue("content-security-policy").orElseThrow())
                .contains("default-src 'self'").doesNotContain("unsafe-inline", "unsafe-eval");
        // every script is a file of this origin: nothing inline, nothing from elsewhere
        Matcher scripts = Pattern.compile("<script([^>]*)>").matcher(page.body());
        int count = 0;
        while (scripts.find()) {
            count++;
            assertThat(scripts.group(1)).matches(" src=\"/ui/[a-z]+\\.js\" defer");
        }
        assertThat(count).isEqualTo(2);
        assertThat(page.body()).doesNotContain("http://", "https://", " style=", "onclick");
        for (String file : new String[] {"/ui/console.js", "/ui/chart.js", "/ui/console.css"}) {
            HttpResponse<String> asset = admin(file);
            assertThat(asset.statusCode()).as(file).isEqualTo(200);
            assertThat(asset.body()).as(file).doesNotContainPattern("https?://(?!www\\.w3\\.org/2000/svg\")")
                    .doesNotContain("eval(", "new Function");
        }
        assertThat(admin("/ui/console.js").headers().firstValue("content-type")).hasValue("text/javascript; charset=utf-8");
        assertThat(admin("/ui/missing.js").statusCode()).isEqualTo(404);
        assertThat(admin("/").body()).contains("/ui", "/stats/series", "/stats/stream", "/access_log", "/services/call");
    }

    @Test
    void theStreamPushesEachSampleAndTheRequestsFinishedWhileTheTapIsOpenOnlyWhileWatched() throws Exception {
        start();
        assertThat(gateway.gateway().metrics().accessLogTap().open()).as("nobody watches yet").isFalse();
        try (Socket socket = new Socket("127.0.0.1", gateway.gateway().adminPort())) {
            BufferedReader in = subscribe(socket);
            Await.until("the tap open for the subscriber", LIMIT, () -> gateway.gateway().metrics().accessLogTap().open());

            long deadline = System.nanoTime() + LIMIT.toNanos();
            boolean sample = false;
            boolean record = false;
            int sent = 0;
            while (!(sample && record) && System.nanoTime() < deadline) {
                assertThat(proxied("/probe-" + sent++).statusCode()).isEqualTo(200);
                String line = in.readLine();
                if (line.startsWith("data: {\"time\":") && line.contains("\"rq\":")) {
                    sample = true;
                }
                if (line.startsWith("data: [") && line.contains("\"path\":\"/probe-")) {
                    assertThat(line).contains("\"status\":200", "\"route\":\"api\"", "\"cluster\":\"web\"");
                    record = true;
                }
            }
            assertThat(sample).as("a sample event").isTrue();
            assertThat(record).as("an access_log event with a request sent").isTrue();
        }
        Await.until("the tap closed once the subscriber left", LIMIT,
                () -> !gateway.gateway().metrics().accessLogTap().open());
    }

    @Test
    void theTailAnswersTheLastRequestsThatPassItsFilters() throws Exception {
        start();
        assertThat(admin("/access_log").body()).contains("\"records\" : [ ]");
        // that read opened the tap: these two reach the tail at the admin thread's next second
        assertThat(proxied("/tail-ok").statusCode()).isEqualTo(200);
        HttpResponse<String> missing = proxied("/missing");
        assertThat(missing.statusCode()).as("no route: " + missing.body()).isEqualTo(503);
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!admin("/access_log?status=503").body().contains("/missing")) {
            assertThat(System.nanoTime()).as("the tail shows /missing within " + LIMIT).isLessThan(deadline);
            Thread.onSpinWait();
        }
        String ok = admin("/access_log?status=2xx&route=tail&cluster=web").body();
        assertThat(ok).contains("\"path\" : \"/tail-ok\"").doesNotContain("/missing");
        String notFound = admin("/access_log?status=5xx").body();
        assertThat(notFound).contains("\"path\" : \"/missing\"", "\"flags\" : \"NR\"").doesNotContain("/tail-ok");
        assertThat(admin("/access_log?flag=NR").body()).contains("/missing").doesNotContain("/tail-ok");
        assertThat(admin("/access_log?cluster=other").body()).contains("\"records\" : [ ]");
        assertThat(admin("/access_log?limit=0").statusCode()).isEqualTo(400);
        assertThat(admin("/access_log?limit=1").body().split("\"path\"", -1)).hasSize(2);

        String series = admin("/stats/series").body();
        assertThat(series).contains("\"interval_ms\" : 1000", "\"capacity\" : 900", "\"rq\" : [", "\"p99_ms\" : [");
    }

    @Test
    void aTryItCallGoesThroughTheNamedListenerAndAnswersItsStatusBodyAndTime() throws Exception {
        start();
        String path = URLEncoder.encode("/probe/com.example.Svc/find?x-rpc-group=blue", StandardCharsets.UTF_8);
        HttpResponse<String> call = adminPost("/services/call?listener=http&types=int,java.lang.String&path=" + path,
                "[1, \"a\"]");
        assertThat(call.statusCode()).as(call.body()).isEqualTo(200);
        assertThat(call.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode answer = JSON.readTree(call.body());
        assertThat(answer.get("status").asInt()).isEqualTo(200);
        assertThat(answer.get("time_ms").asDouble()).isPositive();
        assertThat(answer.get("content_type").asText()).isEqualTo("text/plain");
        // the upstream's echo of what it received through the listener's route
        assertThat(answer.get("body").asText()).contains("upstream: web\n", "method: POST\n",
                "target: /probe/com.example.Svc/find?x-rpc-group=blue\n", "body-bytes: 8\n",
                "h-content-type: application/json\n", "h-x-rpc-types: int,java.lang.String\n");
        // counted when the exchange ends, which may follow the answer's last byte
        Await.until("the call counted on its route", LIMIT,
                () -> gateway.count("tollgate.route.rq", "route", "api", "status_class", "2xx") >= 1);
        assertThat(gateway.count("tollgate.route.rq", "route", "api", "status_class", "2xx")).isEqualTo(1);

        HttpResponse<String> missing = adminPost("/services/call?listener=http&path=/missing", "[]");
        assertThat(missing.statusCode()).as("the route's answer, whatever it is, is the call's").isEqualTo(200);
        assertThat(JSON.readTree(missing.body()).get("status").asInt()).isEqualTo(503);

        assertThat(adminPost("/services/call?listener=nope&path=/probe/a/b", "[]").body())
                .contains("listener: 'nope' (expected an HTTP/1.1 listener of this gateway)");
        assertThat(adminPost("/services/call?listener=nope&path=/probe/a/b", "[]").statusCode()).isEqualTo(400);
        assertThat(adminPost("/services/call?listener=http", "[]").statusCode()).isEqualTo(400);
        assertThat(adminPost("/services/call?listener=http&path=no-slash", "[]").statusCode()).isEqualTo(400);
        assertThat(admin("/services/call?listener=http&path=/probe/a/b").statusCode()).isEqualTo(405);
    }

    @Test
    void eachHostsRequestsErrorsAndConnectionsShowInClustersAndInTheStream() throws Exception {
        upstream = new HttpUpstream("web");
        failing = new HttpUpstream("bad").answer("/", () -> 503);
        int closedPort = FreePort.pick();
        gateway = TestGateway.start(GatewayYaml.http("""
                - { name: bad, match: { prefix: /bad }, route: { cluster: bad } }
                - { name: dead, match: { prefix: /dead }, route: { cluster: dead } }
                - { name: api, match: { prefix: /probe }, route: { cluster: web } }
                """, """
                clusters:
                  - name: web
                    endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
                  - name: bad
                    endpoints: [ { address: 127.0.0.1, port: ${BAD} } ]
                  - name: dead
                    endpoints: [ { address: 127.0.0.1, port: ${DEAD} } ]
                """), Map.of("PORT", upstream.port(), "BAD", failing.port(), "DEAD", closedPort));
        String web = "127.0.0.1:" + upstream.port();
        String bad = "127.0.0.1:" + failing.port();
        for (int i = 0; i < 4; i++) {
            assertThat(proxied("/probe/" + i).statusCode()).isEqualTo(200);
        }
        assertThat(proxied("/bad/1").statusCode()).isEqualTo(503);
        assertThat(proxied("/bad/2").statusCode()).isEqualTo(503);
        assertThat(proxied("/dead/1").statusCode()).isEqualTo(503);
        // counted when each attempt ends, which may follow the answer's last byte
        Await.until("every attempt counted on its host", LIMIT, () -> {
            JsonNode clusters = clusters();
            return host(clusters, "web").get("rq_total").asLong() == 4 && host(clusters, "bad").get("rq_total").asLong() == 2
                    && host(clusters, "dead").get("rq_total").asLong() == 1;
        });
        JsonNode clusters = clusters();
        assertThat(host(clusters, "web").get("rq_error_total").asLong()).isZero();
        assertThat(host(clusters, "web").get("cx_active").asLong()).as("one kept-alive connection").isEqualTo(1);
        assertThat(host(clusters, "bad").get("rq_error_total").asLong()).as("its 503s").isEqualTo(2);
        assertThat(host(clusters, "dead").get("rq_error_total").asLong()).as("its connect failure").isEqualTo(1);
        assertThat(host(clusters, "dead").get("cx_active").asLong()).isZero();

        try (Socket socket = new Socket("127.0.0.1", gateway.gateway().adminPort())) {
            BufferedReader in = subscribe(socket);
            long deadline = System.nanoTime() + LIMIT.toNanos();
            JsonNode hosts = null;
            while (hosts == null) {
                assertThat(System.nanoTime()).as("a sample with both hosts' rates within " + LIMIT).isLessThan(deadline);
                assertThat(proxied("/probe/x").statusCode()).isEqualTo(200);
                assertThat(proxied("/bad/x").statusCode()).isEqualTo(503);
                String line = in.readLine();
                if (line.startsWith("data: {\"time\":")) {
                    JsonNode sample = JSON.readTree(line.substring("data: ".length())).get("clusters");
                    JsonNode webHost = sample.path("web").path("hosts").path(web);
                    JsonNode badHost = sample.path("bad").path("hosts").path(bad);
                    if (webHost.path("rq").asDouble() > 0 && badHost.path("rq_error").asDouble() > 0) {
                        hosts = sample;
                    }
                }
            }
            assertThat(hosts.at("/web/hosts").get(web).get("rq_error").asDouble()).isZero();
            assertThat(hosts.at("/web/hosts").get(web).get("cx_active").asLong()).isEqualTo(1);
            assertThat(hosts.at("/bad/hosts").get(bad).get("rq_error").asDouble())
                    .isEqualTo(hosts.at("/bad/hosts").get(bad).get("rq").asDouble());
            assertThat(hosts.path("dead").has("hosts")).as("an idle host without connections is left out").isFalse();
        }
    }

    private JsonNode clusters() {
        try {
            return JSON.readTree(admin("/clusters").body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The only host of {@code cluster} in {@code /clusters}. */
    private static JsonNode host(JsonNode clusters, String cluster) {
        for (JsonNode c : clusters.get("clusters")) {
            if (c.get("name").asText().equals(cluster)) {
                return c.get("hosts").get(0);
            }
        }
        throw new AssertionError("no cluster " + cluster + " in " + clusters);
    }

    /** Sends {@code GET /stats/stream} on {@code socket} and reads the answer's head; the events follow. */
    private static BufferedReader subscribe(Socket socket) throws IOException {
        socket.setSoTimeout((int) LIMIT.toMillis());
        OutputStream out = socket.getOutputStream();
        out.write("GET /stats/stream HTTP/1.1\r\nHost: admin\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        assertThat(in.readLine()).isEqualTo("HTTP/1.1 200 OK");
        StringBuilder head = new StringBuilder();
        for (String line = in.readLine(); !line.isEmpty(); line = in.readLine()) {
            head.append(line.toLowerCase()).append('\n');
        }
        assertThat(head.toString()).contains("content-type: text/event-stream", "transfer-encoding: chunked");
        return in;
    }

    private void start() throws Exception {
        upstream = new HttpUpstream("web");
        gateway = TestGateway.start(GatewayYaml.http("""
                - { name: api, match: { prefix: /probe }, route: { cluster: web } }
                - { name: tail, match: { prefix: /tail }, route: { cluster: web } }
                """, """
                clusters:
                  - name: web
                    endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
                """), Map.of("PORT", upstream.port()));
    }

    private HttpResponse<String> proxied(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(gateway.uri("http", path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> adminPost(String path, String body) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.gateway().adminPort() + path))
                .timeout(LIMIT).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> admin(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.gateway().adminPort() + path))
                .timeout(LIMIT).build(), HttpResponse.BodyHandlers.ofString());
    }
}
