package io.tollgate.server.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DeadlinesTest {

    private final EventLoop loop = new DefaultEventLoop();
    private final Deadlines deadlines = new Deadlines(loop);
    private final List<String> expired = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopLoop() {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void expiresNoEarlierThanItsTimeout() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        long[] expiredAt = new long[1];
        // read before the start: the timeout runs from some instant within start(), not after it returned
        long startedAt = onLoop(() -> {
            long before = System.nanoTime();
            deadlines.start(new Deadline() {
                @Override
                protected void expired() {
                    expiredAt[0] = System.nanoTime();
                    done.countDown();
                }
            }, TimeUnit.MILLISECONDS.toNanos(40));
            return before;
        });

        assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(expiredAt[0] - startedAt).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(40));
    }

    @Test
    void expiresTimeoutsOfDifferentLengthsInDueOrder() throws Exception {
        List<Named> started = List.of(named("80ms"), named("20ms"), named("50ms"));
        onLoop(() -> {
            startEachForItsName(started);
            return null;
        });

        awaitAll(started);
        assertThat(expired).containsExactlyElementsOf(namesByDueTime(started));
    }

    /** A loop that runs late finds timeouts of several lengths due at once: they still expire in due order. */
    @Test
    void expiresTimeoutsOfDifferentLengthsDueTogetherInDueOrder() throws Exception {
        List<Named> started = List.of(named("80ms"), named("20ms"), named("50ms"));
        onLoop(() -> {
            startEachForItsName(started);
            long lastDue = started.get(0).dueNanos;
            while (System.nanoTime() - lastDue <= 0) {
                TimeUnit.MILLISECONDS.sleep(1);
            }
            return null;
        });

        awaitAll(started);
        assertThat(expired).containsExactlyElementsOf(namesByDueTime(started));
    }

    @Test
    void expiresTimeoutsOfOneLengthInArrivalOrder() throws Exception {
        Named third = named("third");
        onLoop(() -> {
            deadlines.start(named("first"), TimeUnit.MILLISECONDS.toNanos(10));
            deadlines.start(named("second"), TimeUnit.MILLISECONDS.toNanos(10));
            deadlines.start(third, TimeUnit.MILLISECONDS.toNanos(10));
            return null;
        });

        assertThat(third.done.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(expired).containsExactly("first", "second", "third");
    }

    @Test
    void neverExpiresACancelledTimeout() throws Exception {
        Named later = named("later");
        onLoop(() -> {
            Named cancelled = named("cancelled");
            deadlines.start(cancelled, TimeUnit.MILLISECONDS.toNanos(10));
            deadlines.start(later, TimeUnit.MILLISECONDS.toNanos(40));
            deadlines.cancel(cancelled);
            assertThat(cancelled.pending()).isFalse();
            return null;
        });

        assertThat(later.done.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(expired).containsExactly("later");
    }

    @Test
    void letsAnExpiringTimeoutCancelAnotherDueAtTheSameTime() throws Exception {
        Named witness = named("witness");
        onLoop(() -> {
            Named second = named("second");
            deadlines.start(new Deadline() {
                @Override
                protected void expired() {
                    expired.add("first");
                    deadlines.cancel(second);
                }
            }, TimeUnit.MILLISECONDS.toNanos(10));
            deadlines.start(second, TimeUnit.MILLISECONDS.toNanos(10));
            deadlines.start(witness, TimeUnit.MILLISECONDS.toNanos(30));
            return null;
        });

        assertThat(witness.done.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(expired).containsExactly("first", "witness");
    }

    @Test
    void letsAnExpiringTimeoutStartAShorterOne() throws Exception {
        Named restarted = named("restarted");
        onLoop(() -> {
            deadlines.start(new Deadline() {
                @Override
                protected void expired() {
                    expired.add("first");
                    deadlines.start(restarted, TimeUnit.MILLISECONDS.toNanos(5));
                }
            }, TimeUnit.MILLISECONDS.toNanos(10));
            deadlines.start(named("long"), TimeUnit.SECONDS.toNanos(30));
            return null;
        });

        assertThat(restarted.done.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(expired).containsExactly("first", "restarted");
        assertThat(onLoop(deadlines::pendingCount)).isEqualTo(1);
    }

    @Test
    void expiresAZeroTimeoutAtOnce() throws Exception {
        Named now = named("now");
        onLoop(() -> {
            deadlines.start(now, 0);
            return null;
        });

        assertThat(now.done.await(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void refusesToStartAPendingTimeoutOrANegativeOne() throws Exception {
        Named twice = named("twice");
        onLoop(() -> {
            deadlines.start(twice, TimeUnit.SECONDS.toNanos(30));
            assertThatThrownBy(() -> deadlines.start(twice, TimeUnit.SECONDS.toNanos(30)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already started");
            assertThatThrownBy(() -> deadlines.start(named("negative"), -1))
                    .hasMessageContaining("timeoutNanos: -1 (expected: >= 0)");
            deadlines.cancel(twice);
            return null;
        });

        assertThat(onLoop(deadlines::pendingCount)).isZero();
    }

    /** Clients choosing their own timeouts (gRPC) cannot make a lane per length, and none expires early. */
    @Test
    void boundsTheLanesOfManyDistinctLengthsWithoutExpiringAnyEarly() throws Exception {
        int count = 1000;
        CountDownLatch all = new CountDownLatch(count);
        long[] late = new long[count];
        int lanes = onLoop(() -> {
            for (int i = 0; i < count; i++) {
                int index = i;
                long timeout = TimeUnit.MILLISECONDS.toNanos(1 + i);
                long startedAt = System.nanoTime();
                deadlines.start(new Deadline() {
                    @Override
                    protected void expired() {
                        late[index] = System.nanoTime() - startedAt - timeout;
                        all.countDown();
                    }
                }, timeout);
            }
            return deadlines.laneCount();
        });

        int coarseUpToOneSecond = Deadlines.COARSE_STEPS_PER_DOUBLING * (64 - Long.numberOfLeadingZeros(
                TimeUnit.MILLISECONDS.toNanos(count)));
        assertThat(lanes).isLessThanOrEqualTo(Deadlines.MAX_EXACT_LANES + coarseUpToOneSecond).isLessThan(count / 4);
        assertThat(all.await(10, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < count; i++) {
            assertThat(late[i]).as("lateness of the %d ms timeout", i + 1).isGreaterThanOrEqualTo(0);
        }
    }

    @Test
    void coarseLengthsAreNeverShorterAndAtMostAQuarterLonger() {
        for (long length = 1; length < 1L << 40; length = length * 3 + 1) {
            long coarse = Deadlines.coarse(length);
            assertThat(coarse).isGreaterThanOrEqualTo(length).isLessThanOrEqualTo(length + length / 4 + 1);
        }
    }

    private Named named(String name) {
        return new Named(name);
    }

    /** Starts each with the timeout its name says ({@code "80ms"}); on the loop. */
    private void startEachForItsName(List<Named> each) {
        for (Named named : each) {
            deadlines.start(named, TimeUnit.MILLISECONDS.toNanos(Long.parseLong(named.name.replace("ms", ""))));
        }
    }

    private static void awaitAll(List<Named> each) throws InterruptedException {
        for (Named named : each) {
            assertThat(named.done.await(5, TimeUnit.SECONDS)).as(named.name).isTrue();
        }
    }

    /**
     * Their names in the order they fell due: their lengths' order, unless the thread starting
     * them was held up between two starts for longer than the lengths differ.
     */
    private static List<String> namesByDueTime(List<Named> each) {
        return each.stream().sorted((a, b) -> Long.signum(a.dueNanos - b.dueNanos)).map(n -> n.name).toList();
    }

    private <T> T onLoop(Callable<T> task) throws Exception {
        return loop.submit(task).get(5, TimeUnit.SECONDS);
    }

    /** A timeout that records its name when it expires. */
    private final class Named extends Deadline {

        private final String name;
        private final CountDownLatch done = new CountDownLatch(1);

        private Named(String name) {
            this.name = name;
        }

        @Override
        protected void expired() {
            expired.add(name);
            done.countDown();
        }
    }
}
