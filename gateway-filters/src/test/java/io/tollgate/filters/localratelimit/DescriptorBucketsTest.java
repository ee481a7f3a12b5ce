package io.tollgate.filters.localratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One bucket per value, bounded: full buckets make room, the rest share the overflow bucket. */
class DescriptorBucketsTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long ORIGIN = 1_000 * SECOND;

    private final TestClock clock = new TestClock(ORIGIN);
    private final BucketShape twoPerSecond = new BucketShape(2, 2, SECOND, ORIGIN, clock);

    @Test
    void eachValueHasABucketOfItsOwn() {
        DescriptorBuckets buckets = new DescriptorBuckets(twoPerSecond, 10);
        assertThat(buckets.bucket("a")).isSameAs(buckets.bucket("a"));
        assertThat(buckets.bucket("a")).isNotSameAs(buckets.bucket("b"));
        drain(buckets.bucket("a"));
        assertThat(buckets.bucket("b").tryTake()).isTrue();
        assertThat(buckets.bucket("a").tryTake()).isFalse();
    }

    @Test
    void longValuesAreToldApartByTheirDigest() {
        DescriptorBuckets buckets = new DescriptorBuckets(twoPerSecond, 10);
        String one = "k".repeat(8192);
        String other = "k".repeat(8191) + "l";
        assertThat(buckets.bucket(one)).isSameAs(buckets.bucket("k".repeat(8192)));
        assertThat(buckets.bucket(one)).isNotSameAs(buckets.bucket(other));
        assertThat(buckets.bucket("k".repeat(DescriptorBuckets.MAX_KEY_CHARS)))
                .isNotSameAs(buckets.bucket("k".repeat(DescriptorBuckets.MAX_KEY_CHARS + 1)));
        assertThat(buckets.size()).isEqualTo(4);
    }

    @Test
    void valuesPastTheBoundShareTheOverflowBucketUntilAFullBucketMakesRoom() {
        DescriptorBuckets buckets = new DescriptorBuckets(twoPerSecond, 2);
        buckets.bucket("a").tryTake();
        buckets.bucket("b").tryTake();
        clock.set(ORIGIN + 1);
        TokenBucket third = buckets.bucket("c");
        assertThat(buckets.bucket("d")).as("the overflow bucket, shared").isSameAs(third);
        assertThat(buckets.size()).isEqualTo(2);

        clock.set(ORIGIN + 2 * SECOND);
        TokenBucket own = buckets.bucket("c");
        assertThat(own).as("a bucket of its own once full ones were dropped").isNotSameAs(third);
        assertThat(buckets.bucket("c")).isSameAs(own);
        assertThat(buckets.size()).isEqualTo(1);
    }

    @Test
    void bucketsStillInUseAreNeverDroppedToMakeRoom() {
        DescriptorBuckets buckets = new DescriptorBuckets(twoPerSecond, 1);
        TokenBucket a = buckets.bucket("a");
        drain(a);
        TokenBucket overflow = buckets.bucket("b");
        assertThat(buckets.bucket("a")).isSameAs(a);
        clock.set(ORIGIN + SECOND);
        drain(a);
        assertThat(buckets.bucket("b")).as("a is not full: no room").isSameAs(overflow);
        assertThat(buckets.bucket("a")).isSameAs(a);
    }

    private static void drain(TokenBucket bucket) {
        while (bucket.tryTake()) {
            // empties the bucket
        }
    }
}
