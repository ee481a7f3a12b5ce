package io.tollgate.filters.localratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Token buckets on a clock the test moves: fills, the cap, and threads racing for the same tokens. */
class TokenBucketTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long ORIGIN = 1_000 * SECOND;

    private final TestClock clock = new TestClock(ORIGIN);

    private TokenBucket bucket(long max, long perFill, long interval) {
        return new TokenBucket(new BucketShape(max, perFill, interval, ORIGIN, clock), clock.getAsLong());
    }

    @Test
    void startsFullAndGivesExactlyMaxTokensWithinAFill() {
        TokenBucket bucket = bucket(5, 5, SECOND);
        for (int i = 0; i < 5; i++) {
            clock.set(ORIGIN + i);
            assertThat(bucket.tryTake()).as("token " + i).isTrue();
        }
        clock.set(ORIGIN + SECOND - 1);
        assertThat(bucket.tryTake()).isFalse();
        assertThat(bucket.available(ORIGIN + SECOND - 1)).isZero();
    }

    @Test
    void eachFillAddsItsTokensUpToTheMaximum() {
        TokenBucket bucket = bucket(4, 1, SECOND);
        assertThat(drain(bucket)).isEqualTo(4);
        assertThat(bucket.available(ORIGIN + SECOND)).isEqualTo(1);
        assertThat(bucket.available(ORIGIN + 3 * SECOND)).isEqualTo(3);
        assertThat(bucket.available(ORIGIN + 100 * SECOND)).isEqualTo(4);
        assertThat(bucket.full(ORIGIN + 100 * SECOND)).isTrue();

        clock.set(ORIGIN + 100 * SECOND);
        assertThat(drain(bucket)).as("what a full bucket gives, however long it waited").isEqualTo(4);
        clock.set(ORIGIN + 101 * SECOND);
        assertThat(bucket.tryTake()).isTrue();
        assertThat(bucket.tryTake()).isFalse();
    }

    @Test
    void fillsAreInstantsCountedFromTheOriginNotFromTheLastTake() {
        clock.set(ORIGIN + SECOND / 2);
        TokenBucket bucket = bucket(2, 2, SECOND);
        drain(bucket);
        clock.set(ORIGIN + SECOND - 1);
        assertThat(bucket.tryTake()).isFalse();
        clock.set(ORIGIN + SECOND);
        assertThat(bucket.tryTake()).isTrue();
        assertThat(new BucketShape(2, 2, SECOND, ORIGIN, clock).untilNextFill(ORIGIN + SECOND + 10))
                .isEqualTo(SECOND - 10);
    }

    @Test
    void aClockReadBeforeAFillAnotherThreadUsedIsReadAgainBeforeRefusing() {
        TokenBucket bucket = new TokenBucket(new BucketShape(2, 2, SECOND, ORIGIN,
                sequence(ORIGIN, ORIGIN, ORIGIN + SECOND, ORIGIN + SECOND - 1, ORIGIN + SECOND)), ORIGIN);
        assertThat(bucket.tryTake()).isTrue();
        assertThat(bucket.tryTake()).isTrue();
        assertThat(bucket.tryTake()).as("one event loop, after the fill").isTrue();
        assertThat(bucket.tryTake()).as("another, whose first reading predates the fill").isTrue();
        assertThat(bucket.available(ORIGIN + SECOND)).isZero();
    }

    @Test
    void racingThreadsTakeExactlyTheTokensThereAre() throws Exception {
        int tokens = 100_000;
        TokenBucket bucket = bucket(tokens, 1, TimeUnit.DAYS.toNanos(1));
        int taken = takenByRacingThreads(8, () -> {
            int mine = 0;
            for (int i = 0; i < tokens; i++) {
                if (bucket.tryTake()) {
                    mine++;
                }
            }
            return mine;
        });
        assertThat(taken).isEqualTo(tokens);
    }

    @Test
    void racingThreadsAcrossFillsGetExactlyTheStartingTokensAndThoseOfEachFill() throws Exception {
        long fill = 1_000;
        int fills = 50;
        TokenBucket bucket = bucket(10, 10, fill);
        CountDownLatch moved = new CountDownLatch(1);
        Thread mover = new Thread(() -> {
            for (int f = 1; f <= fills; f++) {
                while (bucket.available(clock.getAsLong()) > 0) {
                    Thread.onSpinWait();
                }
                if (f < fills) {
                    clock.set(ORIGIN + f * fill + f % 7);
                }
            }
            moved.countDown();
        });
        mover.setDaemon(true);
        mover.start();
        int taken = takenByRacingThreads(3, () -> {
            int mine = 0;
            while (moved.getCount() > 0) {
                if (bucket.tryTake()) {
                    mine++;
                }
            }
            return mine;
        });
        assertThat(taken).as("the first 10, then 10 at each of %d fills, each taken before the next", fills - 1)
                .isEqualTo(10 + (fills - 1) * 10);
    }

    /** Runs {@code taker} on {@code threads} threads started at once; the tokens they took in all. */
    private static int takenByRacingThreads(int threads, Callable<Integer> taker) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> taken = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                taken.add(pool.submit(() -> {
                    go.await();
                    return taker.call();
                }));
            }
            go.countDown();
            int total = 0;
            for (Future<Integer> f : taken) {
                total += f.get(30, TimeUnit.SECONDS);
            }
            return total;
        } finally {
            pool.shutdownNow();
        }
    }

    /** A clock giving {@code readings} in turn, then the last one for ever. */
    private static LongSupplier sequence(long... readings) {
        PrimitiveIterator.OfLong next = LongStream.of(readings).iterator();
        long[] last = {readings[readings.length - 1]};
        return () -> next.hasNext() ? (last[0] = next.nextLong()) : last[0];
    }

    private static int drain(TokenBucket bucket) {
        int taken = 0;
        while (bucket.tryTake()) {
            taken++;
        }
        return taken;
    }
}
