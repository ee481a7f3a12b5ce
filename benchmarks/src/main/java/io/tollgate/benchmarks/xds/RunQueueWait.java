package io.tollgate.benchmarks.xds;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * How long the gateway's event-loop threads were runnable but not running, waiting for a CPU
 * (Linux {@code /proc/<pid>/task/<tid>/schedstat}: time on the CPU, time waiting on a run queue,
 * time slices), summed over the threads named {@code tollgate-io-*}. A loop that waits for a CPU
 * while its probe falls due is late by that wait whatever the JVM does: this tells the host's
 * share of the loops' delay from the JVM's (GC and safepoint pauses, which the GC log shows).
 * Zero everywhere when {@code /proc} is not there.
 */
record RunQueueWait(long cpuNanos, long waitNanos, long slices) {

    static RunQueueWait read(long pid) {
        long cpu = 0;
        long wait = 0;
        long slices = 0;
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    if (!Files.readString(task.resolve("comm")).startsWith("tollgate-io-")) {
                        continue;
                    }
                    String[] fields = Files.readString(task.resolve("schedstat")).trim().split(" ");
                    cpu += Long.parseLong(fields[0]);
                    wait += Long.parseLong(fields[1]);
                    slices += Long.parseLong(fields[2]);
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return new RunQueueWait(0, 0, 0);
        }
        return new RunQueueWait(cpu, wait, slices);
    }

    /** What happened since {@code before}. */
    RunQueueWait since(RunQueueWait before) {
        return new RunQueueWait(cpuNanos - before.cpuNanos, waitNanos - before.waitNanos, slices - before.slices);
    }

    /** Per second of the window, {@code seconds} long, with the mean wait per time slice. */
    String perSecond(double seconds) {
        return String.format("on a CPU %.0f ms/s, waiting for one %.0f ms/s, %.3f ms per wake-up on average",
                cpuNanos / 1e6 / seconds, waitNanos / 1e6 / seconds, slices == 0 ? 0 : waitNanos / 1e6 / slices);
    }
}
