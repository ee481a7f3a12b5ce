package io.tollgate.server.drain;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.util.concurrent.EventExecutorGroup;
import io.tollgate.core.metrics.MetricNames;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process's drain state, one per gateway: whether it fails health checks on request, and the
 * one drain of the whole process once one started (by SIGTERM, {@code /quitquitquit},
 * {@code /drain_listeners} or a hot restart); also starts the drains of single listeners a
 * reload removed, which leave the process's state alone. Thread-safe; read by the admin API.
 */
public final class DrainController {

    private static final Logger log = LoggerFactory.getLogger(DrainController.class);

    private final EventExecutorGroup timers;
    private final MeterRegistry registry;
    private final BooleanSupplier initialized;
    private volatile boolean started;
    private volatile boolean failingHealthChecks;
    private volatile Drain processDrain;

    /**
     * @param timers where drain timeouts wait
     * @param initialized whether the gateway has its first configuration (with xDS, the first one
     *     from the control plane)
     */
    public DrainController(EventExecutorGroup timers, MeterRegistry registry, BooleanSupplier initialized) {
        this.timers = requireNonNull(timers, "timers");
        this.registry = requireNonNull(registry, "registry");
        this.initialized = requireNonNull(initialized, "initialized");
        Gauge.builder(MetricNames.SERVER_STATE, () -> state().code()).register(registry);
    }

    /** The gateway finished starting: its listeners and admin API are bound. */
    public void started() {
        started = true;
    }

    /** The process's state now. */
    public ServerState state() {
        if (processDrain != null || failingHealthChecks) {
            return ServerState.DRAINING;
        }
        if (!started) {
            return ServerState.PRE_INITIALIZING;
        }
        return initialized.getAsBoolean() ? ServerState.LIVE : ServerState.INITIALIZING;
    }

    /** Whether {@code /ready} answers 200: live, not draining and not failing health checks. */
    public boolean ready() {
        return state() == ServerState.LIVE;
    }

    /**
     * Makes {@code /ready} answer 503 ({@code fail}) or stop doing so on request, without draining
     * anything (Envoy's {@code /healthcheck/fail} and {@code /healthcheck/ok}); a drain keeps it 503.
     */
    public void failHealthChecks(boolean fail) {
        if (failingHealthChecks != fail) {
            log.info(fail ? "failing health checks on request: /ready answers 503"
                    : "passing health checks again on request");
        }
        failingHealthChecks = fail;
    }

    /** Whether the whole process is draining. */
    public boolean draining() {
        return processDrain != null;
    }

    /** The drain of the whole process, or null while none started. */
    public Drain processDrain() {
        return processDrain;
    }

    /**
     * Drains the whole process: {@code listeners} are all it serves. The first call starts the
     * drain; a later one joins it (and stops the listeners accepting, when it asks for that and the
     * first did not).
     *
     * @param stopAccepting whether the listeners stop accepting at once (the process will exit, or
     *     another process took over their sockets)
     * @param timeout how long requests in flight may take
     */
    public synchronized Drain drainProcess(DrainTrigger trigger, List<? extends DrainableListener> listeners,
            boolean stopAccepting, Duration timeout) {
        Drain current = processDrain;
        if (current != null) {
            log.info("{} joins the drain started by {}", trigger.tag(), current.trigger().tag());
            if (stopAccepting) {
                current.stopAccepting();
            }
            return current;
        }
        current = Drain.start(trigger, listeners, stopAccepting, timeout, timers, registry);
        processDrain = current;
        return current;
    }

    /**
     * Drains one listener a reload or the control plane removed or replaced ({@code trigger}): it
     * stops accepting at once, and the process stays live.
     */
    public Drain drainListener(DrainableListener listener, DrainTrigger trigger, Duration timeout) {
        return Drain.start(trigger, List.of(listener), true, timeout, timers, registry);
    }
}
