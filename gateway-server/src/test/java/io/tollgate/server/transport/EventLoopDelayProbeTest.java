package io.tollgate.server.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.netty.util.concurrent.EventExecutor;
import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.GatewayYaml;
import io.tollgate.server.testing.HttpUpstream;
import io.tollgate.server.testing.TestGateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each event loop's scheduling delay is measured and published: a loop held by a slow task shows
 * the stall in {@code /stats/prometheus} and {@code /stats}, while loops that are free show
 * delays far below their probe period.
 */
class EventLoopDelayProbeTest {

    private static final Pattern PEAK = Pattern.compile(
            "(?m)^tollgate_event_loop_delay_peak_seconds\\{loop=\"(\\d+)\"} (\\S+)$");

    private final HttpClient http = HttpClient.newHttpClient();
    private HttpUpstream upstream;
    private TestGateway gateway;

    @BeforeEach
    void start() throws Exception {
        upstream = new HttpUpstream("up");
        gateway = TestGateway.start(GatewayYaml.gateway(2, "name: http", """
                - { match: { prefix: / }, route: { cluster: upstream } }
                """, """
                clusters:
                  - name: upstream
                    endpoints: [ { address: 127.0.0.1, port: ${PORT} } ]
                """), Map.of("PORT", upstream.port()));
    }

    @AfterEach
    void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void idleLoopsRunTheProbeWithSmallDelays() throws Exception {
        Await.until("50 probes on each loop", Duration.ofSeconds(10),
                () -> delays("0").count() >= 50 && delays("1").count() >= 50);
        for (String loop : new String[] {"0", "1"}) {
            Timer delays = delays(loop);
            // most probes of an idle loop run on time; a wrong measure (the period, the clock) would put them above 5 ms
            assertThat(countAtOrBelow(delays, 5)).as("probes of loop %s on time within 5 ms", loop)
                    .isGreaterThan(delays.count() / 2);
        }
        assertThat(admin("/stats")).contains("\"tollgate.event_loop.delay\"", "\"tollgate.event_loop.delay.peak\"");
        assertThat(gateway.servedBy("http", "/after-probes-", 3)).containsExactly("up");
    }

    @Test
    void aLoopHeldBy200MillisecondsShowsTheStallAndTheOtherLoopDoesNot() throws Exception {
        Await.until("a probe on each loop", Duration.ofSeconds(10),
                () -> delays("0").count() > 0 && delays("1").count() > 0);
        Iterator<EventExecutor> loops = gateway.gateway().eventLoops().iterator();
        EventExecutor first = loops.next();
        first.execute(() -> {
            try {
                TimeUnit.MILLISECONDS.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Await.until("the stall published", Duration.ofSeconds(10), () -> peakSeconds("0") >= 0.150);

        assertThat(delays("0").max(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(150);
        assertThat(gateway.gateway().eventLoopDelays().peakNanos()).isGreaterThanOrEqualTo(150_000_000L);
        assertThat(countAtOrBelow(delays("1"), 5)).as("loop 1 on time within 5 ms")
                .isGreaterThan(delays("1").count() / 2);
        assertThat(countAtOrBelow(delays("0"), 100)).as("loop 0's stall in the histogram: probes at most 100 ms late")
                .isLessThan(delays("0").count());
    }

    private Timer delays(String loop) {
        return gateway.gateway().metrics().registry().get("tollgate.event_loop.delay").tag("loop", loop).timer();
    }

    /** Probes that ran at most {@code millis} late, from the timer's buckets. */
    private static double countAtOrBelow(Timer timer, long millis) {
        for (CountAtBucket bucket : timer.takeSnapshot().histogramCounts()) {
            if (bucket.bucket(TimeUnit.MILLISECONDS) == millis) {
                return bucket.count();
            }
        }
        throw new AssertionError("no bucket at " + millis + " ms");
    }

    /** The loop's peak as the Prometheus scrape shows it; 0 when absent. */
    private double peakSeconds(String loop) {
        Matcher peak = PEAK.matcher(admin("/stats/prometheus"));
        while (peak.find()) {
            if (peak.group(1).equals(loop)) {
                return Double.parseDouble(peak.group(2));
            }
        }
        return 0;
    }

    private String admin(String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.gateway().adminPort() + path))
                    .build(), HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception e) {
            throw new AssertionError("admin " + path, e);
        }
    }
}
