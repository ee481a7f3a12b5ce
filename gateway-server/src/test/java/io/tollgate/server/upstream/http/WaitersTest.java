package io.tollgate.server.upstream.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.core.config.CircuitBreakerThresholdsConfig;
import io.tollgate.core.metrics.ConnectionErrorMeters;
import io.tollgate.router.breaker.CircuitBreakers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The waiter queue's bookkeeping: which waiters are pending (and hold a place in the cluster's
 * pending breaker), who is served first, and what a connect that ended without serving does.
 */
class WaitersTest {

    private final List<String> overflows = new ArrayList<>();
    private final CircuitBreakers breakers = new CircuitBreakers(
            new CircuitBreakerThresholdsConfig(1024, 1024, 1024, 3, Optional.empty()));

    @Test
    void aWaiterCoveredByAConnectInFlightIsNotPending() {
        Waiters waiters = waiters(0);
        Recorder covered = new Recorder();
        Recorder beyond = new Recorder();

        waiters.connectStarted();
        waiters.add(covered);
        waiters.add(beyond);

        assertThat(covered.outcome).isNull();
        assertThat(beyond.outcome).isEqualTo("OVERFLOW");
        assertThat(overflows).hasSize(1);
        assertThat(breakers.pendingRequests()).isZero();
    }

    @Test
    void theLongestWaitingIsServedFirstAndPlacesAreGivenBackAsTheQueueShrinks() {
        Waiters waiters = waiters(2);
        Recorder first = new Recorder();
        Recorder second = new Recorder();
        Recorder third = new Recorder();
        queueBehindOneConnect(waiters, first, second, third);

        assertThat(waiters.poll()).as("served by a released connection").isSameAs(first);
        assertThat(breakers.pendingRequests()).isEqualTo(1);
        waiters.connectSucceeded();
        assertThat(waiters.poll()).as("served by the finished connect").isSameAs(second);
        assertThat(breakers.pendingRequests()).isEqualTo(1);
        assertThat(waiters.poll()).isSameAs(third);
        assertThat(breakers.pendingRequests()).isZero();
        assertThat(waiters.poll()).isNull();
    }

    @Test
    void aFailedConnectWithNothingElseToServeFailsTheWaitersBeyondTheConnectsStillInFlight() {
        Waiters waiters = waiters(5);
        Recorder first = new Recorder();
        Recorder second = new Recorder();
        Recorder third = new Recorder();
        waiters.connectStarted();
        waiters.connectStarted();
        waiters.add(first);
        waiters.add(second);
        waiters.add(third);

        waiters.connectEnded(false, new IOException("refused"));

        assertThat(first.outcome).isEqualTo("CONNECT_FAILED refused");
        assertThat(second.outcome).isEqualTo("CONNECT_FAILED refused");
        assertThat(third.outcome).as("covered by the connect still in flight").isNull();
        assertThat(breakers.pendingRequests()).isZero();
        assertThat(waiters.poll()).isSameAs(third);
    }

    @Test
    void aFailedConnectWithOtherConnectionsLeavesItsWaiterPendingOrOverflowingWhenNoPlaceIsFree() {
        Waiters waiters = waiters(1);
        Recorder first = new Recorder();
        Recorder second = new Recorder();
        waiters.connectStarted();
        waiters.add(first);

        waiters.connectEnded(true, new IOException("timed out"));
        assertThat(first.outcome).isNull();
        assertThat(breakers.pendingRequests()).isEqualTo(1);

        waiters.connectStarted();
        waiters.add(second);
        waiters.connectEnded(true, new IOException("timed out"));
        assertThat(first.outcome).isEqualTo("OVERFLOW");
        assertThat(second.outcome).isNull();
        assertThat(overflows).hasSize(1);
        assertThat(breakers.pendingRequests()).isEqualTo(1);
    }

    @Test
    void aRemovedWaiterGivesBackItsPlace() {
        Waiters waiters = waiters(1);
        Recorder waiter = new Recorder();
        waiters.add(waiter);
        assertThat(breakers.pendingRequests()).isEqualTo(1);

        waiters.remove(waiter);

        assertThat(breakers.pendingRequests()).isZero();
        assertThat(waiters.isEmpty()).isTrue();
    }

    @Test
    void takingEveryWaiterAwayGivesBackTheirPendingPlacesAndKeepsTheConnectsInFlight() {
        Waiters waiters = waiters(2);
        Recorder first = new Recorder();
        Recorder second = new Recorder();
        Recorder third = new Recorder();
        queueBehindOneConnect(waiters, first, second, third);

        assertThat(waiters.takeAll()).as("in arrival order").containsExactly(first, second, third);

        assertThat(breakers.pendingRequests()).isZero();
        assertThat(waiters.isEmpty()).isTrue();
        assertThat(waiters.connecting()).as("the connect still runs; its end is still reported").isEqualTo(1);
        waiters.connectEnded(false, new IOException("refused"));
        assertThat(waiters.connecting()).isZero();
        assertThat(Arrays.asList(first.outcome, second.outcome, third.outcome)).as("nobody told twice")
                .containsOnlyNulls();
    }

    /** Starts one connect and queues {@code recorders} behind it: the first is covered, the others pending. */
    private void queueBehindOneConnect(Waiters waiters, Recorder... recorders) {
        waiters.connectStarted();
        for (Recorder recorder : recorders) {
            waiters.add(recorder);
        }
        assertThat(breakers.pendingRequests()).isEqualTo(recorders.length - 1);
    }

    private Waiters waiters(int limit) {
        return new Waiters(limit, breakers, new PoolEvents() {
            @Override
            public void connectionOpened() {
            }

            @Override
            public void connectionClosed() {
            }

            @Override
            public void connectFailure() {
            }

            @Override
            public void hostDown() {
            }

            @Override
            public void overflow() {
                overflows.add("overflow");
            }

            @Override
            public void connectionOverflow() {
            }

            @Override
            public ConnectionErrorMeters connectionErrors() {
                return null;
            }
        });
    }

    /** An acquirer that remembers how its wait ended. */
    private static final class Recorder implements UpstreamPool.Acquirer {
        String outcome;

        @Override
        public void acquired(UpstreamConnection connection) {
            outcome = "acquired";
        }

        @Override
        public void failed(UpstreamPool.Failure failure, Throwable cause) {
            outcome = cause == null ? failure.name() : failure + " " + cause.getMessage();
        }
    }
}
