package io.tollgate.router.breaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.CircuitBreakerThresholdsConfig;
import io.tollgate.core.config.RetryBudgetConfig;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CircuitBreakersTest {

    @Test
    void eachLimitRefusesPastItAndReopensWhenGivenBack() {
        CircuitBreakers breakers = new CircuitBreakers(new CircuitBreakerThresholdsConfig(1, 1, 1, 1, Optional.empty()));

        assertThat(breakers.tryOpenConnection(false)).isTrue();
        assertThat(breakers.tryOpenConnection(false)).isFalse();
        assertThat(breakers.tryEnqueue()).isTrue();
        assertThat(breakers.tryEnqueue()).isFalse();
        assertThat(breakers.tryStartRequest()).isTrue();
        assertThat(breakers.tryStartRequest()).isFalse();
        assertThat(breakers.tryStartRetry()).isTrue();
        assertThat(breakers.tryStartRetry()).isFalse();

        breakers.connectionClosed();
        breakers.dequeued();
        breakers.requestFinished();
        breakers.retryFinished();

        assertThat(breakers.tryOpenConnection(false)).isTrue();
        assertThat(breakers.tryEnqueue()).isTrue();
        assertThat(breakers.tryStartRequest()).isTrue();
        assertThat(breakers.tryStartRetry()).isTrue();
    }

    @Test
    void aForcedConnectionPassesTheLimitAndIsCounted() {
        CircuitBreakers breakers = new CircuitBreakers(new CircuitBreakerThresholdsConfig(1, 1, 1, 1, Optional.empty()));
        breakers.tryOpenConnection(false);

        assertThat(breakers.tryOpenConnection(true)).isTrue();
        assertThat(breakers.connections()).isEqualTo(2);
    }

    @Test
    void theRetryBudgetIsAShareOfActiveRequestsWithAFloor() {
        CircuitBreakers breakers = new CircuitBreakers(new CircuitBreakerThresholdsConfig(1024, 1024, 1024, 0,
                Optional.of(new RetryBudgetConfig(20, 2))));

        assertThat(takeRetries(breakers)).as("floor with no request active").isEqualTo(2);
        for (int i = 0; i < 20; i++) {
            breakers.tryStartRequest();
        }
        assertThat(takeRetries(breakers)).as("20 percent of 20, minus the 2 taken").isEqualTo(2);
        assertThat(breakers.retries()).isEqualTo(4);
    }

    @Test
    void givingBackMoreThanWasTakenIsABug() {
        CircuitBreakers breakers = new CircuitBreakers(CircuitBreakerThresholdsConfig.DEFAULTS);

        assertThatThrownBy(breakers::requestFinished).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("requests: given back more often than taken");
        assertThat(breakers.requests()).isZero();
    }

    @Test
    void concurrentTakersNeverPassTheLimit() throws InterruptedException {
        CircuitBreakers breakers = new CircuitBreakers(new CircuitBreakerThresholdsConfig(1024, 1024, 50, 3, Optional.empty()));
        AtomicInteger granted = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(4);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        for (int t = 0; t < 4; t++) {
            threads.execute(() -> {
                for (int i = 0; i < 1000; i++) {
                    if (breakers.tryStartRequest()) {
                        granted.incrementAndGet();
                    }
                }
                done.countDown();
            });
        }
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        threads.shutdown();

        assertThat(granted.get()).isEqualTo(50);
        assertThat(breakers.requests()).isEqualTo(50);
    }

    private static int takeRetries(CircuitBreakers breakers) {
        int taken = 0;
        while (breakers.tryStartRetry()) {
            taken++;
        }
        return taken;
    }
}
