package io.tollgate.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Times a benchmark's operation by the CPU time of the thread that runs it rather than by the
 * clock, so that a host loaded by other work (builds, other benchmarks) inflates the figure far
 * less than JMH's wall-clock average: preemption costs no CPU time of ours. The best of several runs
 * is kept, after a warm-up that lets the JIT compile the loop.
 */
public final class CpuTime {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CpuTime() {
    }

    /** CPU nanoseconds per call of {@code operation}: the best of {@code runs} runs of {@code calls} calls. */
    public static double nanosPerCall(Runnable operation, int calls, int runs) {
        for (int i = 0; i < calls; i++) {
            operation.run();
        }
        double best = Double.MAX_VALUE;
        for (int run = 0; run < runs; run++) {
            long start = THREADS.getCurrentThreadCpuTime();
            for (int i = 0; i < calls; i++) {
                operation.run();
            }
            best = Math.min(best, (THREADS.getCurrentThreadCpuTime() - start) / (double) calls);
        }
        return best;
    }
}
