package io.tollgate.benchmarks.xds;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * Where the host's CPU time went, as far as the benchmark can tell: how long the gateway's
 * event-loop threads ({@code tollgate-io-*}) ran and how long they were runnable but waited for a
 * CPU (Linux {@code /proc/<pid>/task/<tid>/schedstat}: time on a CPU, time on a run queue, time
 * slices), and the CPU time of the gateway's JVM and of the benchmark's own (clients, upstreams,
 * control plane). A loop that waits for a CPU while its probe falls due is late by that wait
 * whatever the gateway does: this tells the host's share of the loops' delay from the JVM's (GC
 * and safepoint pauses, which the GC log shows). The loops' figures are zero when {@code /proc}
 * is not there.
 */
public record HostCpu(long loopCpuNanos, long loopWaitNanos, long loopSlices, long gatewayCpuNanos, long benchmarkCpuNanos) {

    static HostCpu read(ProcessHandle gateway) {
        long cpu = 0;
        long wait = 0;
        long slices = 0;
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(gateway.pid()), "task"))) {
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
            cpu = 0;
            wait = 0;
            slices = 0;
        }
        return new HostCpu(cpu, wait, slices, cpuNanos(gateway), cpuNanos(ProcessHandle.current()));
    }

    private static long cpuNanos(ProcessHandle process) {
        return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    /** What happened since {@code before}. */
    public HostCpu since(HostCpu before) {
        return new HostCpu(loopCpuNanos - before.loopCpuNanos, loopWaitNanos - before.loopWaitNanos,
                loopSlices - before.loopSlices, gatewayCpuNanos - before.gatewayCpuNanos,
                benchmarkCpuNanos - before.benchmarkCpuNanos);
    }

    /** Per second of the window, {@code seconds} long. */
    public String perSecond(double seconds) {
        return String.format("event loops on a CPU %.0f ms/s, waiting for one %.0f ms/s (%.3f ms per wake-up on average);"
                + " CPU of the gateway JVM %.0f ms/s, of the benchmark JVM %.0f ms/s", loopCpuNanos / 1e6 / seconds,
                loopWaitNanos / 1e6 / seconds, loopSlices == 0 ? 0 : loopWaitNanos / 1e6 / loopSlices,
                gatewayCpuNanos / 1e6 / seconds, benchmarkCpuNanos / 1e6 / seconds);
    }
}
