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
 * tracked, so after the class it collects garbage and allocates a few buffers to flush the
 * detector's queue before it looks.
 */
public final class LeakDetectionExtension implements AfterAllCallback {

    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            collectGarbage();
            touchDetectors();
        }
        List<String> reports = LeakReportAppender.drain();
        if (!reports.isEmpty()) {
            throw new AssertionError(reports.size() + " buffer leak report(s) in "
                    + context.getDisplayName() + ":\n" + String.join("\n\n", reports));
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
}
