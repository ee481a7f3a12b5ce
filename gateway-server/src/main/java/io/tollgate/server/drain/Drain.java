package io.tollgate.server.drain;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.Channel;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.ScheduledFuture;
import io.tollgate.core.metrics.MetricNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One drain of some listeners: every open connection is asked to drain, and the drain is
 * {@linkplain #done() done} as soon as the last one closed, or at the timeout, when those still
 * open are closed. A drain for exit stops the listeners accepting first. Each step is logged at
 * INFO; while it lasts, the connections left are logged every few seconds.
 */
public final class Drain {

    private static final Logger log = LoggerFactory.getLogger(Drain.class);
    private static final long PROGRESS_LOG_SECONDS = 5;

    private final DrainTrigger trigger;
    private final List<? extends DrainableListener> listeners;
    private final MeterRegistry registry;
    private final long startNanos = System.nanoTime();
    private final CompletableFuture<DrainOutcome> done = new CompletableFuture<>();
    private final AtomicBoolean stoppedAccepting = new AtomicBoolean();
    private final AtomicBoolean forced = new AtomicBoolean();
    private final int connectionsAtStart;
    private volatile int closedUnfinished;
    private volatile String forcedResult;
    private ScheduledFuture<?> timeout;
    private ScheduledFuture<?> progress;

    private Drain(DrainTrigger trigger, List<? extends DrainableListener> listeners, MeterRegistry registry) {
        this.trigger = trigger;
        this.listeners = List.copyOf(listeners);
        this.registry = registry;
        this.connectionsAtStart = openConnections();
    }

    /**
     * Starts draining {@code listeners}.
     *
     * @param stopAccepting whether the listeners stop accepting at once (a drain for exit); else they
     *     keep accepting until {@link #stopAccepting()}, and each connection they admit drains at once
     * @param timeout how long requests in flight may take before their connections are closed
     * @param timers where the timeout waits
     */
    static Drain start(DrainTrigger trigger, List<? extends DrainableListener> listeners, boolean stopAccepting,
            Duration timeout, EventExecutorGroup timers, MeterRegistry registry) {
        Drain drain = new Drain(trigger, listeners, registry);
        Counter.builder(MetricNames.SERVER_DRAIN_STARTED).tag(MetricNames.TAG_TRIGGER, trigger.tag())
                .register(registry).increment();
        log.info("drain started by {}: {} listeners, {} connections open, timeout {} ms", trigger.tag(),
                drain.listeners.size(), drain.connectionsAtStart, timeout.toMillis());
        if (stopAccepting) {
            drain.stopAccepting();
        }
        drain.run(timeout, timers);
        return drain;
    }

    private void run(Duration limit, EventExecutorGroup timers) {
        CompletableFuture<?>[] connectionsClosed = listeners.stream().map(l -> l.connections().drain())
                .toArray(CompletableFuture[]::new);
        timeout = timers.next().schedule(() -> force("timeout"), limit.toNanos(), TimeUnit.NANOSECONDS);
        progress = timers.next().scheduleAtFixedRate(this::logProgress, PROGRESS_LOG_SECONDS, PROGRESS_LOG_SECONDS,
                TimeUnit.SECONDS);
        CompletableFuture.allOf(connectionsClosed).whenComplete((ignored, error) -> finish());
    }

    /** The outcome, once no connection of the drained listeners is left open. */
    public CompletableFuture<DrainOutcome> done() {
        return done;
    }

    /** What started this drain. */
    public DrainTrigger trigger() {
        return trigger;
    }

    /** Stops the listeners accepting new connections, if they still do. */
    public void stopAccepting() {
        if (!stoppedAccepting.compareAndSet(false, true)) {
            return;
        }
        for (DrainableListener listener : listeners) {
            listener.stopAccepting();
        }
        log.info(trigger == DrainTrigger.LISTENER_CHANGED
                ? "drain ({}): the listeners' new versions accept the new connections: {}"
                : "drain ({}): listeners closed, accepting no new connection: {}", trigger.tag(),
                listeners.stream().map(DrainableListener::name).toList());
    }

    /** Ends the drain at once: the connections still open are closed with their work unfinished. */
    public void endNow() {
        force("ended");
    }

    private void force(String result) {
        if (done.isDone() || !forced.compareAndSet(false, true)) {
            return;
        }
        forcedResult = result;
        List<Channel> unfinished = new ArrayList<>();
        for (DrainableListener listener : listeners) {
            unfinished.addAll(listener.connections().unfinished());
        }
        int closed = unfinished.size();
        closedUnfinished = closed;
        log.info("drain ({}) {} after {} ms: closing the {} connections still open", trigger.tag(),
                result.equals("timeout") ? "timed out" : "ended at once", elapsedMillis(), closed);
        unfinished.forEach(Channel::close);
    }

    private void logProgress() {
        log.info("drain ({}): {} connections left after {} ms", trigger.tag(), openConnections(), elapsedMillis());
    }

    private void finish() {
        timeout.cancel(false);
        progress.cancel(false);
        String result = forcedResult != null && closedUnfinished > 0 ? forcedResult : "drained";
        DrainOutcome outcome = new DrainOutcome(trigger, connectionsAtStart, closedUnfinished, result,
                Duration.ofNanos(System.nanoTime() - startNanos));
        Counter.builder(MetricNames.SERVER_DRAIN_COMPLETED).tag(MetricNames.TAG_TRIGGER, trigger.tag())
                .tag(MetricNames.TAG_RESULT, result).register(registry).increment();
        log.info("drain ({}) done in {} ms: {} connections finished their work, {} closed unfinished", trigger.tag(),
                outcome.took().toMillis(), Math.max(0, connectionsAtStart - closedUnfinished), closedUnfinished);
        done.complete(outcome);
    }

    private int openConnections() {
        int open = 0;
        for (DrainableListener listener : listeners) {
            open += listener.connections().size();
        }
        return open;
    }

    private long elapsedMillis() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }
}
