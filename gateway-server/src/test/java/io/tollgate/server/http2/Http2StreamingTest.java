package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.PooledMemory;
import io.tollgate.server.testing.TestGateway;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An h2 client that neither reads nor opens its flow-control window while downloading 50 MB from
 * an HTTP/1.1 upstream: the gateway stops reading the upstream instead of buffering, so its
 * pooled memory stays far below the body size and the upstream is held back; once the client
 * opens its windows and reads, the whole body arrives.
 */
class Http2StreamingTest {

    private static final long BODY = 50L * 1024 * 1024;
    private static final long MEMORY_BOUND = 24L * 1024 * 1024;
    private static final AtomicLong written = new AtomicLong();
    private static HttpUpstream upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        upstream = new HttpUpstream().handle("/download",
                exchange -> HttpUpstream.respondInBlocks(exchange, BODY, written::addAndGet));
        gateway = TestGateway.h2cProxyingTo(upstream.port(), "60s");
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void slowReaderWithAClosedWindowHoldsTheUpstreamBackWithBoundedMemory() throws Exception {
        try (RawH2 client = new RawH2(gateway.port("h2"), 64 * 1024)) {
            client.preface().get(1, "/download");
            long growth = PooledMemory.growthFor(1500);
            long upstreamWrote = written.get();

            client.openWindows(1);
            long received = 0;
            RawH2.Frame frame;
            while ((frame = client.read()) != null) {
                if (frame.type() == RawH2.DATA && frame.stream() == 1) {
                    received += frame.payload().length;
                }
                if (frame.stream() == 1 && frame.endsStream()) {
                    break;
                }
            }

            assertThat(growth).isLessThan(MEMORY_BOUND);
            assertThat(upstreamWrote).isLessThan(BODY / 2);
            assertThat(received).isEqualTo(BODY);
        }
    }
}
