package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AttemptsByIdTest {

    private final AttemptsById<Object> table = new AttemptsById<>();

    @Test
    void findsAndRemovesEachAttemptByItsId() {
        Object one = attempt();
        Object two = attempt();
        table.put(1, one);
        table.put(2, two);
        assertThat(table.get(1)).isSameAs(one);
        assertThat(table.get(2)).isSameAs(two);
        assertThat(table.get(3)).isNull();
        assertThat(table.remove(1)).isSameAs(one);
        assertThat(table.remove(1)).isNull();
        assertThat(table.get(1)).isNull();
        assertThat(table.isEmpty()).isFalse();
        assertThat(table.remove(2)).isSameAs(two);
        assertThat(table.isEmpty()).isTrue();
    }

    @Test
    void anIdWhoseSlotHoldsAnOlderCallIsTakenAndNotConfusedWithIt() {
        Object old = attempt();
        table.put(5, old);
        long sameSlot = 5 + 64;
        assertThat(table.taken(sameSlot)).isTrue();
        assertThat(table.get(sameSlot)).isNull();
        assertThat(table.remove(sameSlot)).isNull();
        assertThatThrownBy(() -> table.put(sameSlot, attempt())).isInstanceOf(IllegalStateException.class);
        assertThat(table.get(5)).isSameAs(old);
    }

    @Test
    void growsPastHalfFullKeepingEveryAttempt() {
        List<Object> added = new ArrayList<>();
        for (long id = 1; id <= 10_000; id++) {
            Object attempt = attempt();
            assertThat(table.taken(id)).isFalse();
            table.put(id, attempt);
            added.add(attempt);
        }
        for (long id = 1; id <= 10_000; id++) {
            assertThat(table.get(id)).isSameAs(added.get((int) id - 1));
        }
        assertThat(table.removeAll()).containsExactlyInAnyOrderElementsOf(added);
        assertThat(table.isEmpty()).isTrue();
        assertThat(table.get(1)).isNull();
    }

    @Test
    void worksWithSixtyFourBitIds() {
        Object attempt = attempt();
        long big = 1_930_000_000_000_000_000L;
        table.put(big, attempt);
        assertThat(table.get(big)).isSameAs(attempt);
        assertThat(table.remove(big)).isSameAs(attempt);
    }

    /** The table only stores what it is given. */
    private static Object attempt() {
        return new Object();
    }
}
