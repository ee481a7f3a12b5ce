package io.tollgate.server.overload;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.management.OperatingSystemMXBean;
import java.util.List;

/**
 * Reads the resources the overload guard watches: the heap still in use after the last garbage
 * collection (what is live, not garbage waiting for the collector) as a share of the maximum heap,
 * and the open descriptors as a share of the process's limit. Runs on the control thread only.
 */
final class ResourcePressure {

    private final double heapThreshold;
    private final double fdThreshold;
    private final List<MemoryPoolMXBean> heapPools;
    private final long maxHeap;
    private final UnixOperatingSystemMXBean descriptors;

    ResourcePressure(double heapThreshold, double fdThreshold) {
        this.heapThreshold = heapThreshold;
        this.fdThreshold = fdThreshold;
        this.heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP && p.isCollectionUsageThresholdSupported())
                .toList();
        this.maxHeap = Runtime.getRuntime().maxMemory();
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        this.descriptors = os instanceof UnixOperatingSystemMXBean ? (UnixOperatingSystemMXBean) os : null;
    }

    /** What is past its threshold, as words for the log, or null when nothing is. */
    String exceeded() {
        if (heapThreshold < 1 && maxHeap > 0) {
            long live = 0;
            for (MemoryPoolMXBean pool : heapPools) {
                MemoryUsage afterGc = pool.getCollectionUsage();
                live += afterGc == null ? 0 : afterGc.getUsed();
            }
            if ((double) live / maxHeap > heapThreshold) {
                return "heap live after GC " + live + " of " + maxHeap + " bytes";
            }
        }
        if (fdThreshold < 1 && descriptors != null) {
            long open = descriptors.getOpenFileDescriptorCount();
            long max = descriptors.getMaxFileDescriptorCount();
            if (max > 0 && (double) open / max > fdThreshold) {
                return open + " of " + max + " descriptors open";
            }
        }
        return null;
    }
}
