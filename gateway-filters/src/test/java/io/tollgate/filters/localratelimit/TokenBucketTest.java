package io.tollgate.filters.localratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Token buckets on a clock the test moves: fills, the cap, and threads racing for the same tokens. */
class TokenBucketTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long ORIGIN = 1_000 * SECOND;

    @Test
    void startsFullAndGivesExactlyMaxTokensWithinAFill() {
        TokenBucket bucket = new TokenBucket(new BucketShape(5, 5, SECOND, ORIGIN), ORIGIN);
        for (int i = 0; i < 5; i++) {
            assertThat(bucket.tryTake(ORIGIN + i)).as("token " + i).isTrue();
        }
        assertThat(bucket.tryTake(ORIGIN + SECOND - 1)).isFalse();
        assertThat(bucket.available(ORIGIN + SECOND - 1)).isZero();
    }

    @Test
    void eachFillAddsItsTokensUpToTheMaximum() {
        TokenBucket bucket = new TokenBucket(new BucketShape(4, 1, SECOND, ORIGIN), ORIGIN);
        drain(bucket, ORIGIN);
        assertThat(bucket.available(ORIGIN + SECOND)).isEqualTo(1);
        assertThat(bucket.available(ORIGIN + 3 * SECOND)).isEqualTo(3);
        assertThat(bucket.available(ORIGIN + 100 * SECOND)).isEqualTo(4);
        assertThat(bucket.full(ORIGIN + 100 * SECOND)).isTrue();

        long later = ORIGIN + 100 * SECOND;
        assertThat(drain(bucket, later)).as("what a full bucket gives, however long it waited").isEqualTo(4);
        assertThat(bucket.tryTake(later + SECOND)).isTrue();
        assertThat(bucket.tryTake(later + SECOND)).isFalse();
    }

    @Test
    void fillsAreInstantsCountedFromTheOriginNotFromTheLastTake() {
        TokenBucket bucket = new TokenBucket(new BucketShape(2, 2, SECOND, ORIGIN), ORIGIN + SECOND / 2);
        drain(bucket, ORIGIN + SECOND / 2);
        assertThat(bucket.tryTake(ORIGIN + SECOND - 1)).isFalse();
        assertThat(bucket.tryTake(ORIGIN + SECOND)).isTrue();
    }

    @Test
    void aClockReadBeforeAFillAnotherThreadUsedNeverGivesMore() {
        TokenBucket bucket = new TokenBucket(new BucketShape(1, 1, SECOND, ORIGIN), ORIGIN);
        drain(bucket, ORIGIN);
        assertThat(bucket.tryTake(ORIGIN + SECOND)).isTrue();
        assertThat(bucket.tryTake(ORIGIN + SECOND - 1)).as("a late thread with the old time").isFalse();
    }

    @Test
    void racingThreadsTakeExactlyTheTokensThereAre() throws Exception {
        int threads = 8;
        int tokens = 100_000;
        TokenBucket bucket = new TokenBucket(new BucketShape(tokens, 1, TimeUnit.DAYS.toNanos(1), ORIGIN), ORIGIN);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> taken = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                taken.add(pool.submit(() -> {
                    go.await();
                    int mine = 0;
                    for (int i = 0; i < tokens; i++) {
                        if (bucket.tryTake(ORIGIN + i)) {
                            mine++;
                        }
                    }
                    return mine;
                }));
            }
            go.countDown();
            int total = 0;
            for (Future<Integer> f : taken) {
                total += f.get(30, TimeUnit.SECONDS);
            }
            assertThat(total).isEqualTo(tokens);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void racingThreadsAcrossFillsGetTheStartingTokensAndThoseOfEachFill() throws Exception {
        int threads = 4;
        long fill = 1_000;
        int fills = 50;
        TokenBucket bucket = new TokenBucket(new BucketShape(10, 10, fill, ORIGIN), ORIGIN);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> taken = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                taken.add(pool.submit(() -> {
                    go.await();
                    int mine = 0;
                    for (long now = ORIGIN; now < ORIGIN + fills * fill; now += 7) {
                        if (bucket.tryTake(now)) {
                            mine++;
                        }
                    }
                    return mine;
                }));
            }
            go.countDown();
            int total = 0;
            for (Future<Integer> f : taken) {
                total += f.get(30, TimeUnit.SECONDS);
            }
            assertThat(total).isLessThanOrEqualTo(10 + (fills - 1) * 10).isGreaterThan(10);
        } finally {
            pool.shutdownNow();
        }
    }

    private static int drain(TokenBucket bucket, long now) {
        int taken = 0;
        while (bucket.tryTake(now)) {
            taken++;
        }
        return taken;
    }
}
