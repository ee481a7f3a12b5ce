package io.tollgate.discovery;

import java.util.concurrent.Executor;

/**
 * Makes a subscription's hosts again while one of its providers warms up (Dubbo's weight ramp,
 * SOFARPC's warmup weight), at the moments its {@link ProviderLayout} names: after each
 * publication the subscription asks for the next step, which runs on the control executor,
 * forgets the warmups noted and makes the hosts again. One step is queued at a time. Used on the
 * control thread.
 */
public final class WarmupRamp {

    /** Runs a task once after a delay, on some timer thread; drops it once the registry is closed. */
    @FunctionalInterface
    public interface Timer {

        /** Runs {@code task} after {@code delayMillis}. */
        void schedule(Runnable task, long delayMillis);
    }

    private final ProviderLayout layout;
    private final Timer timer;
    private final Executor control;
    private final Runnable remake;
    private boolean queued;

    /**
     * A ramp for the hosts {@code layout} makes: a step, due when the layout says, runs
     * {@code remake} on {@code control} (which makes every host again and publishes them).
     */
    public WarmupRamp(ProviderLayout layout, Timer timer, Executor control, Runnable remake) {
        this.layout = layout;
        this.timer = timer;
        this.control = control;
        this.remake = remake;
    }

    /** After a publication: queues the next step when a host warms up and none is queued. */
    public void published() {
        long delay = layout.nextRampMillis();
        if (delay < 0 || queued) {
            return;
        }
        queued = true;
        timer.schedule(() -> control.execute(this::step), delay);
    }

    private void step() {
        queued = false;
        layout.forgetRamps();
        remake.run();
    }
}
