package io.tollgate.benchmarks.filter;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * {@link BuiltInFilterBenchmark}'s request timed by the thread's CPU time rather than the wall
 * clock, which a host shared with builds makes swing: for each filter, the best of 8 runs of 2 M
 * requests, in CPU nanoseconds per request. Run with
 * {@code java -cp benchmarks/target/benchmarks.jar io.tollgate.benchmarks.filter.FilterCpuTime}.
 */
public final class FilterCpuTime {

    private static final int RUNS = 8;
    private static final int REQUESTS = 2_000_000;

    private FilterCpuTime() {
    }

    public static void main(String[] args) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        String[] filters = args.length > 0 ? args
                : new String[] {"none", "headers-literal", "headers-variables", "cors-actual", "cors-preflight",
                        "mirror-10pct"};
        long sink = 0;
        for (String filter : filters) {
            BuiltInFilterBenchmark bench = new BuiltInFilterBenchmark();
            bench.filter = filter;
            bench.setUp();
            long best = Long.MAX_VALUE;
            for (int run = 0; run < RUNS; run++) {
                long start = threads.getCurrentThreadCpuTime();
                for (int i = 0; i < REQUESTS; i++) {
                    sink += bench.request().mirrors;
                }
                best = Math.min(best, threads.getCurrentThreadCpuTime() - start);
            }
            System.out.printf("%-18s %6.0f CPU ns/request%n", filter, (double) best / REQUESTS);
        }
        System.out.println("(copies asked for: " + sink + ")");
    }
}
