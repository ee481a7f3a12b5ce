package io.tollgate.core.accesslog;

import static io.tollgate.core.accesslog.AccessLogFormatTest.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.AccessLogConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccessLogsTest {

    @TempDir
    Path dir;

    @Test
    void writesOneLinePerEntryToTheFileInOrder() throws IOException {
        Path file = dir.resolve("access.log");

        logTo(file, IntStream.range(0, 1000).mapToObj(i -> "/" + i).toList());

        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(1000);
        assertThat(lines.get(0)).contains("\"GET /0 HTTP/1.1\" 200");
        assertThat(lines.get(999)).contains("\"GET /999 HTTP/1.1\" 200");
    }

    @Test
    void appendsToAnExistingFile() throws IOException {
        Path file = dir.resolve("access.log");
        Files.writeString(file, "earlier line\n");

        logTo(file, List.of("/later"));

        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).isEqualTo("earlier line");
        assertThat(lines.get(1)).contains("/later");
    }

    @Test
    void flushesWhenTheQueueRunsDryWithoutWaitingForClose() throws IOException {
        Path file = dir.resolve("access.log");

        try (AccessLogSink sink = open(file)) {
            sink.log(entry("/flushed", 200));

            awaitUntil(() -> read(file).contains("/flushed"), Duration.ofSeconds(5));
        }
    }

    @Test
    void dropsAndCountsEntriesWhenTheQueueIsFull() throws Exception {
        GatedStream stream = new GatedStream();
        AsyncAccessLogWriter sink = new AsyncAccessLogWriter(stream, true, "test", LineFormat.DEFAULT, 2);
        try {
            sink.log(entry("/first", 200));
            assertThat(stream.writing.await(5, TimeUnit.SECONDS)).as("writer reached the stream").isTrue();
            sink.log(entry("/queued1", 200));
            sink.log(entry("/queued2", 200));
            sink.log(entry("/dropped", 200));

            assertThat(sink.dropped()).isEqualTo(1);
        } finally {
            stream.gate.countDown();
            sink.close();
        }
        assertThat(stream.text()).contains("/first", "/queued1", "/queued2").doesNotContain("/dropped");
        assertThat(stream.closed).isTrue();
    }

    @Test
    void dropsEntriesLoggedAfterClose() throws IOException {
        Path file = dir.resolve("access.log");
        AccessLogSink sink = open(file);
        sink.close();

        sink.log(entry("/late", 200));

        assertThat(sink.dropped()).isEqualTo(1);
        assertThat(read(file)).isEmpty();
    }

    @Test
    void aDisabledLogWritesNothingAndCreatesNoFile() {
        AccessLogSink sink = AccessLogs.open(AccessLogConfig.DISABLED);

        sink.log(entry("/ignored", 200));
        sink.close();

        assertThat(sink.dropped()).isZero();
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void failsToOpenAPathThatIsADirectory() {
        assertThatThrownBy(() -> AccessLogs.open(new AccessLogConfig(dir.toString())))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(dir.toString());
    }

    private static AccessLogSink open(Path file) {
        return AccessLogs.open(new AccessLogConfig(file.toString()));
    }

    /** Logs a 200 entry for each path, then closes the log. */
    private static void logTo(Path file, List<String> paths) {
        try (AccessLogSink sink = open(file)) {
            paths.forEach(path -> sink.log(entry(path, 200)));
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void awaitUntil(BooleanSupplier condition, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within " + bound).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    /** A stream whose writes wait until the test opens the gate, so the writer's queue can fill. */
    private static final class GatedStream extends OutputStream {
        final CountDownLatch writing = new CountDownLatch(1);
        final CountDownLatch gate = new CountDownLatch(1);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        volatile boolean closed;

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            writing.countDown();
            awaitGate();
            synchronized (bytes) {
                bytes.write(b, off, len);
            }
        }

        @Override
        public void close() {
            closed = true;
        }

        String text() {
            synchronized (bytes) {
                return bytes.toString(StandardCharsets.UTF_8);
            }
        }

        private void awaitGate() {
            try {
                gate.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
