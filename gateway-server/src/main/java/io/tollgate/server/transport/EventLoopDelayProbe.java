package io.tollgate.server.transport;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import io.tollgate.core.metrics.MetricNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Measures how late each event loop of a group runs a task, the stall every connection of that
 * loop feels (a slow handler, a large job run on the loop, a GC pause, a starved CPU): each loop
 * runs a tiny task every {@link #PERIOD} and records how long after its due time it ran in
 * {@value MetricNames#EVENT_LOOP_DELAY} and the largest so far in
 * {@value MetricNames#EVENT_LOOP_DELAY_PEAK}, tagged with the loop's index (Envoy's per-worker
 * dispatcher statistics, Node.js's {@code monitorEventLoopDelay}).
 *
 * <p>The task is a timer of the loop's own: it adds nothing to requests; a loop that is idle
 * wakes up for it {@code 1 s / PERIOD} times a second. A stall of {@code d} shows as a delay
 * between {@code d - PERIOD} and {@code d}; a stall shorter than the period shows only when the
 * task falls due during it.
 */
public final class EventLoopDelayProbe implements AutoCloseable {

    /**
     * How often each loop runs the probe task: 10 ms, Node.js's default resolution for the same
     * measure; short enough that a stall of tens of milliseconds never goes unseen, long enough
     * that an idle loop's hundred wake-ups a second cost a few hundred microseconds of CPU.
     */
    public static final Duration PERIOD = Duration.ofMillis(10);

    private static final Duration[] BUCKETS = {Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(2),
        Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(20), Duration.ofMillis(50),
        Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(500), Duration.ofSeconds(1)};

    private final List<LoopProbe> probes;

    private EventLoopDelayProbe(List<LoopProbe> probes) {
        this.probes = probes;
    }

    /** Starts probing every loop of {@code loops}, reporting in {@code registry}; {@link #close} stops it. */
    public static EventLoopDelayProbe start(EventLoopGroup loops, MeterRegistry registry) {
        List<LoopProbe> probes = new ArrayList<>();
        int index = 0;
        for (EventExecutor loop : loops) {
            String tag = Integer.toString(index++);
            Timer delays = Timer.builder(MetricNames.EVENT_LOOP_DELAY).tag(MetricNames.TAG_LOOP, tag)
                    .serviceLevelObjectives(BUCKETS).register(registry);
            LoopProbe probe = new LoopProbe(delays);
            Gauge.builder(MetricNames.EVENT_LOOP_DELAY_PEAK, probe, p -> p.peakNanos / 1e9)
                    .tag(MetricNames.TAG_LOOP, tag).baseUnit("seconds").register(registry);
            probe.start(loop);
            probes.add(probe);
        }
        return new EventLoopDelayProbe(List.copyOf(probes));
    }

    /** The largest delay seen on any loop since the start, in nanoseconds. */
    public long peakNanos() {
        long peak = 0;
        for (LoopProbe probe : probes) {
            peak = Math.max(peak, probe.peakNanos);
        }
        return peak;
    }

    /** Stops the probe tasks; the meters keep their last values. */
    @Override
    public void close() {
        probes.forEach(LoopProbe::stop);
    }

    /** The probe task of one loop: it runs on that loop only, and only it writes the fields. */
    private static final class LoopProbe implements Runnable {
        private final Timer delays;
        private volatile long peakNanos;
        private long dueNanos;
        private volatile ScheduledFuture<?> future;

        LoopProbe(Timer delays) {
            this.delays = delays;
        }

        void start(EventExecutor loop) {
            long period = PERIOD.toNanos();
            dueNanos = System.nanoTime() + period; // published to the loop by the schedule's task queue
            future = loop.scheduleWithFixedDelay(this, period, period, TimeUnit.NANOSECONDS);
        }

        void stop() {
            future.cancel(false);
        }

        @Override
        public void run() {
            long now = System.nanoTime();
            long late = Math.max(0, now - dueNanos);
            delays.record(late, TimeUnit.NANOSECONDS);
            if (late > peakNanos) {
                peakNanos = late;
            }
            // the loop schedules the next run PERIOD after this one returns
            dueNanos = System.nanoTime() + PERIOD.toNanos();
        }
    }
}
