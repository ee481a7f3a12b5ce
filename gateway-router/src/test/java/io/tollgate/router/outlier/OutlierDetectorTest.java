package io.tollgate.router.outlier;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.OutlierDetectionConfig;
import io.tollgate.router.host.Host;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class OutlierDetectorTest {

    private static final Duration BASE = Duration.ofSeconds(30);
    private static final Duration INTERVAL = Duration.ofSeconds(10);

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final List<String> events = new ArrayList<>();
    private final OutlierListener listener = new OutlierListener() {
        @Override
        public void ejected(Host host, Duration duration) {
            events.add("ejected " + host + " for " + duration.toSeconds() + "s");
        }

        @Override
        public void returned(Host host) {
            events.add("returned " + host);
        }

        @Override
        public void ejectionRefused(Host host) {
            events.add("refused " + host);
        }
    };

    @Test
    void ejectsAHostAfterConsecutive5xxAndReturnsItAfterTheBaseTime() {
        List<Host> hosts = hosts(2);
        OutlierDetector detector = detector(config(3, 0, 0, 100), hosts);
        Host host = hosts.get(0);

        detector.responded(host, 500);
        detector.responded(host, 503);
        assertThat(host.ejected()).isFalse();
        detector.responded(host, 500);

        assertThat(host.ejected()).isTrue();
        assertThat(host.available()).isFalse();
        assertThat(detector.ejectedHosts()).isEqualTo(1);
        assertThat(events).containsExactly("ejected 127.0.0.1:9000 for 30s");

        advance(BASE.minusSeconds(1));
        detector.tick();
        assertThat(host.ejected()).isTrue();

        advance(Duration.ofSeconds(1));
        detector.tick();
        assertThat(host.ejected()).isFalse();
        assertThat(detector.ejectedHosts()).isZero();
        assertThat(events).endsWith("returned 127.0.0.1:9000");
    }

    @Test
    void aSuccessResetsTheConsecutiveCount() {
        List<Host> hosts = hosts(2);
        OutlierDetector detector = detector(config(3, 0, 0, 100), hosts);
        Host host = hosts.get(0);

        detector.responded(host, 500);
        detector.responded(host, 500);
        detector.responded(host, 404);
        detector.responded(host, 500);
        detector.responded(host, 500);

        assertThat(host.ejected()).isFalse();
        assertThat(events).isEmpty();
    }

    @Test
    void gatewayFailuresCountLocalFailuresAndAreResetByOther5xx() {
        List<Host> hosts = hosts(2);
        OutlierDetector detector = detector(config(0, 3, 0, 100), hosts);
        Host host = hosts.get(0);

        detector.responded(host, 502);
        detector.failed(host, UpstreamFailure.TIMEOUT);
        detector.responded(host, 500);
        detector.failed(host, UpstreamFailure.RESET);
        detector.failed(host, UpstreamFailure.CONNECT_FAILURE);
        assertThat(host.ejected()).isFalse();

        detector.responded(host, 504);

        assertThat(host.ejected()).isTrue();
    }

    @Test
    void connectFailuresHaveTheirOwnThreshold() {
        List<Host> hosts = hosts(2);
        OutlierDetector detector = detector(config(0, 0, 2, 100), hosts);
        Host host = hosts.get(0);

        detector.failed(host, UpstreamFailure.CONNECT_FAILURE);
        detector.failed(host, UpstreamFailure.RESET);
        detector.failed(host, UpstreamFailure.CONNECT_FAILURE);
        assertThat(host.ejected()).isFalse();

        detector.failed(host, UpstreamFailure.CONNECT_FAILURE);

        assertThat(host.ejected()).isTrue();
    }

    @Test
    void eachEjectionLastsLongerUpToTheMaximum() {
        List<Host> hosts = hosts(2);
        OutlierDetector detector = detector(new OutlierDetectionConfig(1, 0, 0, INTERVAL, BASE, Duration.ofSeconds(80), 100), hosts);
        Host host = hosts.get(0);

        for (int i = 0; i < 4; i++) {
            detector.responded(host, 500);
            advance(Duration.ofSeconds(80));
            detector.tick();
        }

        assertThat(events).containsExactly(
                "ejected 127.0.0.1:9000 for 30s", "returned 127.0.0.1:9000",
                "ejected 127.0.0.1:9000 for 60s", "returned 127.0.0.1:9000",
                "ejected 127.0.0.1:9000 for 80s", "returned 127.0.0.1:9000",
                "ejected 127.0.0.1:9000 for 80s", "returned 127.0.0.1:9000");
    }

    @Test
    void everyIntervalBackInServiceLowersTheMultiplierByOne() {
        List<Host> hosts = hosts(2);
        OutlierDetector detector = detector(config(1, 0, 0, 100), hosts);
        Host host = hosts.get(0);
        detector.responded(host, 500);
        advance(BASE);
        detector.tick();
        detector.responded(host, 500);
        advance(BASE.multipliedBy(2));
        detector.tick();

        for (int i = 0; i < 2; i++) {
            advance(INTERVAL);
            detector.tick();
        }
        detector.responded(host, 500);

        assertThat(events).endsWith("ejected 127.0.0.1:9000 for 30s");
    }

    @Test
    void neverEjectsMoreThanTheMaximumPercentOfHosts() {
        List<Host> hosts = hosts(4);
        OutlierDetector detector = detector(config(1, 0, 0, 50), hosts);

        hosts.forEach(host -> detector.responded(host, 500));

        assertThat(hosts).filteredOn(Host::ejected).hasSize(2);
        assertThat(detector.ejectedHosts()).isEqualTo(2);
        assertThat(events).filteredOn(e -> e.startsWith("refused")).hasSize(2);
    }

    @Test
    void aRefusedHostIsEjectedOnceAnotherReturns() {
        List<Host> hosts = hosts(2);
        OutlierDetector detector = detector(config(1, 0, 0, 50), hosts);
        detector.responded(hosts.get(0), 500);
        detector.responded(hosts.get(1), 500);
        assertThat(hosts.get(1).ejected()).isFalse();

        advance(BASE);
        detector.tick();
        detector.responded(hosts.get(1), 500);

        assertThat(hosts.get(0).ejected()).isFalse();
        assertThat(hosts.get(1).ejected()).isTrue();
    }

    @Test
    void atLeastOneHostMayBeEjectedUnlessThePercentIsZero() {
        List<Host> hosts = hosts(3);
        OutlierDetector one = detector(config(1, 0, 0, 10), hosts);
        one.responded(hosts.get(0), 500);
        assertThat(hosts.get(0).ejected()).isTrue();

        List<Host> others = hosts(3);
        OutlierDetector none = detector(config(1, 0, 0, 0), others);
        none.responded(others.get(0), 500);
        assertThat(others.get(0).ejected()).isFalse();
    }

    @Test
    void ignoresHostsOfOtherClusters() {
        OutlierDetector detector = detector(config(1, 0, 0, 100), hosts(2));
        Host stranger = hosts(1).get(0);

        detector.responded(stranger, 500);
        detector.failed(stranger, UpstreamFailure.RESET);

        assertThat(stranger.ejected()).isFalse();
        assertThat(events).isEmpty();
    }

    @Test
    void aReportReachingTheThresholdOnlyHandsTheEjectionToTheControlThread() {
        List<Host> hosts = hosts(2);
        List<Runnable> control = new ArrayList<>();
        OutlierDetector detector = new OutlierDetector(config(2, 0, 0, 100), hosts, listener, clock::get, control::add);
        Host host = hosts.get(0);

        detector.responded(host, 500);
        detector.responded(host, 500);

        assertThat(host.ejected()).isFalse();
        assertThat(events).isEmpty();
        assertThat(control).hasSize(1);

        control.forEach(Runnable::run);
        assertThat(host.ejected()).isTrue();
        assertThat(detector.ejectedHosts()).isEqualTo(1);
        assertThat(events).containsExactly("ejected 127.0.0.1:9000 for 30s");
    }

    @Test
    void everyOutcomeIsCountedOnItsHostAndPassedOnToTheDetector() {
        List<Host> hosts = hosts(2);
        UpstreamOutcomes outcomes = new MeteredOutcomes(detector(config(3, 0, 0, 100), hosts));
        Host host = hosts.get(0);

        outcomes.responded(host, 200);
        outcomes.responded(host, 404);
        outcomes.responded(host, 500);
        outcomes.failed(host, UpstreamFailure.RESET);
        assertThat(host.ejected()).isFalse();
        outcomes.failed(host, UpstreamFailure.CONNECT_FAILURE);

        assertThat(host.meters().requests()).isEqualTo(5);
        assertThat(host.meters().errors()).as("the 5xx, the reset and the connect failure").isEqualTo(3);
        assertThat(host.ejected()).as("the detector heard all three").isTrue();
        assertThat(hosts.get(1).meters().requests()).isZero();

        MeteredOutcomes.COUNT_ONLY.responded(hosts.get(1), 503);
        assertThat(hosts.get(1).meters().errors()).isEqualTo(1);
        assertThat(hosts.get(1).ejected()).isFalse();
    }

    private OutlierDetector detector(OutlierDetectionConfig config, List<Host> hosts) {
        return new OutlierDetector(config, hosts, listener, clock::get, Runnable::run);
    }

    private static OutlierDetectionConfig config(int consecutive5xx, int gateway, int connect, int maxPercent) {
        return new OutlierDetectionConfig(consecutive5xx, gateway, connect, INTERVAL, BASE, Duration.ofSeconds(300), maxPercent);
    }

    private void advance(Duration duration) {
        clock.addAndGet(duration.toNanos());
    }

    private static List<Host> hosts(int count) {
        List<Host> hosts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            hosts.add(new Host(new EndpointConfig("127.0.0.1", 9000 + i, 1, java.util.Map.of())));
        }
        return hosts;
    }
}
