package io.tollgate.router.originaldst;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.config.OriginalDstConfig;
import io.tollgate.router.TestRequest;
import io.tollgate.router.host.Host;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The hosts of an {@code original_dst} cluster: one per destination, bounded, dropped when idle, no loop back. */
class OriginalDstHostsTest {

    private final AtomicLong clock = new AtomicLong();
    private final OriginalDstHosts hosts = new OriginalDstHosts(new OriginalDstConfig(2, Duration.ofSeconds(5), true),
            clock::get);

    private static TestRequest to(String address, int port) {
        return TestRequest.of("", "/").originalDestination(new InetSocketAddress(address, port));
    }

    @Test
    void aDestinationIsOneHostForEveryConnectionToIt() {
        Host first = hosts.choose(to("10.0.0.7", 8080));
        assertThat(first.address()).isEqualTo(new InetSocketAddress("10.0.0.7", 8080));
        assertThat(hosts.choose(to("10.0.0.7", 8080))).isSameAs(first);
        assertThat(hosts.choose(to("10.0.0.7", 8081))).isNotSameAs(first);
        assertThat(hosts.serves(first)).isTrue();
        assertThat(hosts.counts().hostsMade()).isEqualTo(2);
    }

    @Test
    void aConnectionThatWasNotRedirectedIsRefusedAndCounted() {
        assertThat(hosts.choose(TestRequest.of("", "/"))).isNull();
        assertThat(hosts.counts().notRedirected()).isEqualTo(1);
        assertThat(hosts.size()).isZero();
    }

    @Test
    void pastMaxHostsANewDestinationIsRefusedUntilAnIdleOneIsDropped() {
        Host a = hosts.choose(to("10.0.0.1", 80));
        Host b = hosts.choose(to("10.0.0.2", 80));
        a.requestStarted();
        assertThat(hosts.choose(to("10.0.0.3", 80))).as("both in use").isNull();
        assertThat(hosts.counts().overflow()).isEqualTo(1);
        clock.addAndGet(Duration.ofSeconds(5).toNanos());
        Host c = hosts.choose(to("10.0.0.3", 80));
        assertThat(c).as("b idle for the timeout: dropped, c takes its place").isNotNull();
        assertThat(hosts.serves(b)).isFalse();
        assertThat(hosts.serves(a)).as("a carries a request: kept").isTrue();
        assertThat(hosts.counts().hostsDropped()).isEqualTo(1);
        assertThat(hosts.size()).isEqualTo(2);
    }

    @Test
    void theHeaderNamesTheDestinationWhenItIsAnAddressAndPort() {
        Host host = hosts.choose(TestRequest.of("", "/").header(OriginalDstConfig.HTTP_HEADER, "[2001:db8::7]:8443"));
        assertThat(host.address()).isEqualTo(new InetSocketAddress("2001:db8::7", 8443));
        for (String bad : new String[] {"example.com:80", "10.0.0.1", "10.0.0.1:", "10.0.0.1:65536", "10.0.1:80",
                "[::1:80", "10.0.0.1:8x"}) {
            assertThat(hosts.choose(to("10.0.0.9", 80).header(OriginalDstConfig.HTTP_HEADER, bad))).as(bad).isNull();
        }
        assertThat(hosts.counts().badHeader()).isEqualTo(7);
    }
}
