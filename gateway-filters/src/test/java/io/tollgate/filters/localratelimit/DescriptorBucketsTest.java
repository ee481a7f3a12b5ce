package io.tollgate.filters.localratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One bucket per value, bounded: full buckets make room, the rest share the overflow bucket. */
class DescriptorBucketsTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long ORIGIN = 1_000 * SECOND;
    private static final BucketShape TWO_PER_SECOND = new BucketShape(2, 2, SECOND, ORIGIN);

    @Test
    void eachValueHasABucketOfItsOwn() {
        DescriptorBuckets buckets = new DescriptorBuckets(TWO_PER_SECOND, 10, ORIGIN);
        assertThat(buckets.bucket("a", ORIGIN)).isSameAs(buckets.bucket("a", ORIGIN + 1));
        assertThat(buckets.bucket("a", ORIGIN)).isNotSameAs(buckets.bucket("b", ORIGIN));
        drain(buckets.bucket("a", ORIGIN), ORIGIN);
        assertThat(buckets.bucket("b", ORIGIN).tryTake(ORIGIN)).isTrue();
        assertThat(buckets.bucket("a", ORIGIN).tryTake(ORIGIN)).isFalse();
    }

    @Test
    void valuesPastTheBoundShareTheOverflowBucketUntilAFullBucketMakesRoom() {
        DescriptorBuckets buckets = new DescriptorBuckets(TWO_PER_SECOND, 2, ORIGIN);
        buckets.bucket("a", ORIGIN).tryTake(ORIGIN);
        buckets.bucket("b", ORIGIN).tryTake(ORIGIN);
        TokenBucket third = buckets.bucket("c", ORIGIN + 1);
        assertThat(buckets.bucket("d", ORIGIN + 1)).as("the overflow bucket, shared").isSameAs(third);
        assertThat(buckets.size()).isEqualTo(2);

        long refilled = ORIGIN + 2 * SECOND;
        TokenBucket own = buckets.bucket("c", refilled);
        assertThat(own).as("a bucket of its own once full ones were dropped").isNotSameAs(third);
        assertThat(buckets.bucket("c", refilled + 1)).isSameAs(own);
        assertThat(buckets.size()).isEqualTo(1);
    }

    @Test
    void bucketsStillInUseAreNeverDroppedToMakeRoom() {
        DescriptorBuckets buckets = new DescriptorBuckets(TWO_PER_SECOND, 1, ORIGIN);
        TokenBucket a = buckets.bucket("a", ORIGIN);
        drain(a, ORIGIN);
        TokenBucket overflow = buckets.bucket("b", ORIGIN);
        assertThat(buckets.bucket("a", ORIGIN)).isSameAs(a);
        drain(a, ORIGIN + SECOND);
        assertThat(buckets.bucket("b", ORIGIN + SECOND)).as("a is not full: no room").isSameAs(overflow);
        assertThat(buckets.bucket("a", ORIGIN + SECOND)).isSameAs(a);
    }

    private static void drain(TokenBucket bucket, long now) {
        while (bucket.tryTake(now)) {
            // empties the bucket
        }
    }
}
