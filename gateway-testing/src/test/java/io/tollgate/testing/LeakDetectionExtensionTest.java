package io.tollgate.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs a class that leaks a buffer and one that releases it through JUnit's own launcher, with the
 * extension auto-detected as every module's build has it: the first fails with Netty's report
 * naming the class, the second passes.
 */
class LeakDetectionExtensionTest {

    @Test
    void aClassThatLeaksABufferFailsWithTheReport() {
        TestExecutionSummary summary = run(LeakingClass.class);

        assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
        List<TestExecutionSummary.Failure> failures = summary.getFailures();
        assertThat(failures).hasSize(1);
        assertThat(failures.get(0).getTestIdentifier().getDisplayName()).isEqualTo("LeakDetectionExtensionTest$LeakingClass");
        assertThat(failures.get(0).getException()).hasMessageContaining("1 buffer leak report(s) in LeakDetectionExtensionTest$LeakingClass")
                .hasMessageContaining("LEAK: ByteBuf.release() was not called");
    }

    @Test
    void aClassThatReleasesItsBuffersPasses() {
        TestExecutionSummary summary = run(ReleasingClass.class);

        assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
        assertThat(summary.getFailures()).isEmpty();
    }

    private static TestExecutionSummary run(Class<?> testClass) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectClass(testClass))
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
                .build();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(request, listener);
        return listener.getSummary();
    }

    /** Run only through {@link #run}: Surefire leaves nested classes out. */
    static class LeakingClass {
        @Test
        void allocatesAndForgets() {
            PooledByteBufAllocator.DEFAULT.directBuffer(8).writeByte(1);
        }
    }

    /** Run only through {@link #run}. */
    static class ReleasingClass {
        @Test
        void allocatesAndReleases() {
            ByteBuf buffer = PooledByteBufAllocator.DEFAULT.directBuffer(8).writeByte(1);
            assertThat(buffer.release()).isTrue();
        }
    }
}
