package io.tollgate.server.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StartedResourcesTest {

    private final List<String> closed = new ArrayList<>();

    @Test
    void closesLastStartedFirstAndOnlyOnce() {
        StartedResources started = new StartedResources();
        AutoCloseable first = () -> closed.add("first");
        assertThat(started.add(first)).isSameAs(first);
        started.add(() -> closed.add("second"));

        started.close();
        started.close();

        assertThat(closed).containsExactly("second", "first");
    }

    @Test
    void closesEverythingThenThrowsTheFirstFailureWithTheOthersSuppressed() {
        StartedResources started = new StartedResources();
        started.add(() -> closed.add("first"));
        started.add(() -> {
            throw new IOException("second");
        });
        started.add(() -> {
            throw new IllegalStateException("third");
        });

        assertThatThrownBy(started::close).isInstanceOf(IllegalStateException.class).hasMessage("third")
                .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
                        .satisfies(s -> assertThat(s).hasRootCauseMessage("second")));
        assertThat(closed).containsExactly("first");
    }
}
