package io.tollgate.discovery.dubbo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Dubbo's warmup weights, as its AbstractLoadBalance computes them (Dubbo 3.3). */
class DubboWarmupTest {

    private static final long START = 1_700_000_000_000L;
    private static final long TEN_MINUTES = DubboWarmup.DEFAULT_WARMUP_MILLIS;

    @Test
    void theWeightGrowsLinearlyOverTheWarmupAndNeverBelowOne() {
        assertThat(DubboWarmup.weight(100, START, TEN_MINUTES, START + 1)).isEqualTo(1);
        assertThat(DubboWarmup.weight(100, START, TEN_MINUTES, START + 5_999)).isEqualTo(1);
        assertThat(DubboWarmup.weight(100, START, TEN_MINUTES, START + 12_000)).isEqualTo(2);
        assertThat(DubboWarmup.weight(100, START, TEN_MINUTES, START + 300_000)).isEqualTo(50);
        assertThat(DubboWarmup.weight(100, START, TEN_MINUTES, START + 599_999)).isEqualTo(99);
        assertThat(DubboWarmup.weight(100, START, TEN_MINUTES, START + 600_000)).isEqualTo(100);
        assertThat(DubboWarmup.weight(7, START, 1_000, START + 500)).isEqualTo(3);
    }

    @Test
    void noStartAStartNowOrNoWarmupGiveTheFullWeightAndAStartAheadGivesOne() {
        assertThat(DubboWarmup.weight(100, 0, TEN_MINUTES, START)).isEqualTo(100);
        assertThat(DubboWarmup.weight(100, START, TEN_MINUTES, START)).isEqualTo(100);
        assertThat(DubboWarmup.weight(100, START, 0, START + 1)).isEqualTo(100);
        assertThat(DubboWarmup.weight(100, START, TEN_MINUTES, START - 1)).isEqualTo(1);
        assertThat(DubboWarmup.weight(0, START, TEN_MINUTES, START + 1)).isZero();
    }

    @Test
    void theWeightIsComputedAgainTwentyTimesOverAWarmupBetweenOneAndThirtySecondsApart() {
        assertThat(DubboWarmup.step(20_000)).isEqualTo(1_000);
        assertThat(DubboWarmup.step(TEN_MINUTES)).isEqualTo(30_000);
        assertThat(DubboWarmup.step(2_000)).isEqualTo(1_000);
        assertThat(DubboWarmup.step(3_600_000)).isEqualTo(30_000);
    }
}
