package io.tollgate.protocols.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RpcStatusTableTest {

    private record Plain(int code, int httpStatus) implements RpcStatus {
    }

    private static final Plain FINE = new Plain(3, 200);
    private static final Plain BUSY = new Plain(7, 503);

    private final RpcStatusTable<Plain> table = new RpcStatusTable<>(new Plain[] {BUSY, FINE});

    @Test
    void findsEachStatusByItsCode() {
        assertThat(table.fromCode(3)).contains(FINE);
        assertThat(table.fromCode(7)).contains(BUSY);
        assertThat(table.httpStatusOf(3)).isEqualTo(200);
        assertThat(table.httpStatusOf(7)).isEqualTo(503);
    }

    @Test
    void aCodeNoStatusNamesIsEmptyAndMeansAServerError() {
        for (int code : new int[] {Integer.MIN_VALUE, -1, 0, 4, 8, 65_536, Integer.MAX_VALUE}) {
            assertThat(table.fromCode(code)).as("code %d", code).isEmpty();
            assertThat(table.httpStatusOf(code)).as("code %d", code).isEqualTo(500);
        }
        assertThat(new RpcStatusTable<>(new Plain[0]).httpStatusOf(0)).isEqualTo(500);
    }

    @Test
    void rejectsACodeGivenTwiceOrOutOfRange() {
        assertThatThrownBy(() -> new RpcStatusTable<>(new Plain[] {new Plain(1, 200), new Plain(1, 500)}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("code 1 of both");
        assertThatThrownBy(() -> new RpcStatusTable<>(new Plain[] {new Plain(-1, 200)}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageEndingWith("-1 (expected: 0..65535)");
        assertThatThrownBy(() -> new RpcStatusTable<>(new Plain[] {new Plain(65_536, 200)}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageEndingWith("65536 (expected: 0..65535)");
    }
}
