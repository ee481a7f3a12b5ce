package io.tollgate.filters.trace.export;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The exporter against a real HTTP server (the JDK's): a full queue drops and counts without
 * blocking, a full batch goes at once, a partial one after the flush interval, what is queued goes
 * on close, and the thread ends with close.
 */
class BatchExporterTest {

    private static final BatchEncoder<String> LINES = batch -> String.join("\n", batch).getBytes(StandardCharsets.UTF_8);

    @Test
    void aFullQueueDropsAndCloseSendsWhatIsQueued() throws Exception {
        List<String> bodies = new CopyOnWriteArrayList<>();
        HttpServer server = receiver(bodies, 200);
        BatchExporter<String> exporter = new BatchExporter<>("test", settings(server, 2, 512, Duration.ofHours(1)), LINES);
        exporter.start();
        try {
            for (int i = 0; i < 5; i++) {
                exporter.offer("span" + i);
            }
            assertThat(exporter.dropped()).isEqualTo(3);
            assertThat(bodies).isEmpty();
        } finally {
            exporter.close();
            server.stop(0);
        }
        assertThat(bodies).containsExactly("span0\nspan1");
        assertThat(exporter.sent()).isEqualTo(2);
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("tollgate-span-export-test"));
    }

    @Test
    void aFullBatchGoesAtOnceAndAPartialOneAfterTheInterval() throws Exception {
        List<String> bodies = new CopyOnWriteArrayList<>();
        HttpServer server = receiver(bodies, 202);
        BatchExporter<String> exporter = new BatchExporter<>("batches", settings(server, 16, 2, Duration.ofMillis(200)), LINES);
        exporter.start();
        try {
            exporter.offer("a");
            exporter.offer("b");
            exporter.offer("c");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            // the receiver holds a body before it answers, and the exporter counts a batch once the answer came
            while ((bodies.size() < 2 || exporter.sent() < 3) && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(5);
            }
            assertThat(bodies).containsExactly("a\nb", "c");
            assertThat(exporter.sent()).isEqualTo(3);
        } finally {
            exporter.close();
            server.stop(0);
        }
    }

    @Test
    void aRefusedRequestIsCountedAsFailed() throws Exception {
        List<String> bodies = new CopyOnWriteArrayList<>();
        HttpServer server = receiver(bodies, 400);
        BatchExporter<String> exporter = new BatchExporter<>("refused", settings(server, 16, 1, Duration.ofHours(1)), LINES);
        exporter.start();
        try {
            exporter.offer("bad");
        } finally {
            exporter.close();
            server.stop(0);
        }
        assertThat(bodies).containsExactly("bad");
        assertThat(exporter.failed()).isEqualTo(1);
        assertThat(exporter.sent()).isZero();
    }

    private static BatchSettings settings(HttpServer server, int maxQueue, int maxBatch, Duration flush) {
        return new BatchSettings(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/api/v2/spans"),
                "text/plain", maxQueue, maxBatch, flush, Duration.ofSeconds(5));
    }

    private static HttpServer receiver(List<String> bodies, int status) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/v2/spans", exchange -> {
            bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
        return server;
    }
}
