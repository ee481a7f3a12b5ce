package io.tollgate.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when Netty reported a buffer leak while it ran.
 *
 * <p>Registered for every test through JUnit's extension auto-detection, so no test can forget
 * it. Leaks are only reported once the leaked buffer is garbage collected and another buffer is
 * tracked, so after the class it collects garbage once and allocates a few buffers to flush the
 * detector's queue before it looks. A buffer that only becomes collectable later (its owner was
 * still closing, or waited for a finalizer or cleaner) is reported at the next class's look; and
 * so that the last class of a run has a next look too, the run ends with a sweep of several
 * collections whose reports fail the run. One collection per class rather than several: a full
 * collection of a test JVM that holds every protocol's client costs 0.2-0.5 s on two cores, and
 * three per class were two of the suite's ten minutes.
 */
public final class LeakDetectionExtension implements AfterAllCallback {

    private static final int SWEEP_COLLECTIONS = 3;

    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException {
        context.getRoot().getStore(ExtensionContext.Namespace.create(LeakDetectionExtension.class))
                .getOrComputeIfAbsent(FinalSweep.class, key -> new FinalSweep(), FinalSweep.class);
        look(1, context.getDisplayName());
    }

    /** Collects garbage {@code collections} times, flushing the detectors after each, and fails on any report. */
    private static void look(int collections, String where) throws InterruptedException {
        for (int i = 0; i < collections; i++) {
            collectGarbage();
            touchDetectors();
        }
        List<String> reports = LeakReportAppender.drain();
        if (!reports.isEmpty()) {
            throw new AssertionError(reports.size() + " buffer leak report(s) in " + where + ":\n"
                    + String.join("\n\n", reports));
        }
    }

    /** Collects garbage and waits, bounded, until the JVM has processed weak references. */
    private static void collectGarbage() throws InterruptedException {
        ReferenceQueue<Object> queue = new ReferenceQueue<>();
        WeakReference<Object> sentinel = new WeakReference<>(new Object(), queue);
        System.gc();
        queue.remove(1_000);
        sentinel.clear();
    }

    private static void touchDetectors() {
        for (int i = 0; i < 16; i++) {
            ByteBuf pooledHeap = PooledByteBufAllocator.DEFAULT.heapBuffer(8);
            ByteBuf pooledDirect = PooledByteBufAllocator.DEFAULT.directBuffer(8);
            ByteBuf unpooled = UnpooledByteBufAllocator.DEFAULT.buffer(8);
            pooledHeap.release();
            pooledDirect.release();
            unpooled.release();
        }
    }

    /** The run's last look: JUnit closes what the root store holds after every class of the run has finished. */
    private static final class FinalSweep implements AutoCloseable {
        @Override
        public void close() throws InterruptedException {
            look(SWEEP_COLLECTIONS, "the test run (found after its last class)");
        }
    }
}
