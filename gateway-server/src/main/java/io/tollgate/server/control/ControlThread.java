package io.tollgate.server.control;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's one control thread, where every change to what requests are routed by is made:
 * health verdicts, outlier ejections and returns, reloads and endpoint updates rebuild host sets,
 * subset indexes and balancer tables here and publish them as immutable versions. Event loops
 * only hand it work ({@link #execute}) and never wait for it, so a rebuild of millions of table
 * entries never holds up a request, and the clusters need no lock since they have one writer.
 */
public final class ControlThread implements Executor, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ControlThread.class);

    private final ScheduledExecutorService executor;
    private final Thread thread;

    private ControlThread(ScheduledExecutorService executor, Thread thread) {
        this.executor = executor;
        this.thread = thread;
    }

    /** Starts the thread, named {@code tollgate-control}. */
    public static ControlThread start() {
        Thread[] made = new Thread[1];
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "tollgate-control");
            thread.setDaemon(true);
            made[0] = thread;
            return thread;
        });
        try {
            executor.submit(() -> { }).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            executor.shutdownNow();
            throw new IllegalStateException("interrupted while starting the control thread", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the control thread did not start", e);
        }
        return new ControlThread(executor, made[0]);
    }

    /** Whether the caller is the control thread. */
    public boolean inControl() {
        return Thread.currentThread() == thread;
    }

    /**
     * Queues {@code task}; returns at once. A task that throws is logged, and the thread goes on.
     * Once the gateway has closed, tasks are dropped.
     */
    @Override
    public void execute(Runnable task) {
        try {
            executor.execute(() -> runLogged(task));
        } catch (RejectedExecutionException e) {
            log.debug("control thread closed, dropping a task");
        }
    }

    /** Runs {@code task} every {@code period} after {@code period}, until the returned future is cancelled. */
    public ScheduledFuture<?> every(long period, TimeUnit unit, Runnable task) {
        return executor.scheduleAtFixedRate(() -> runLogged(task), period, period, unit);
    }

    /**
     * Runs {@code work} on the control thread and returns its result once done (at once when
     * called on that thread). Never call it from an event loop.
     *
     * @throws RuntimeException what {@code work} threw
     */
    public <T> T call(Callable<T> work) {
        if (inControl()) {
            return callHere(work);
        }
        Future<T> result = executor.submit(() -> callHere(work));
        try {
            return result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the control thread", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private static <T> T callHere(Callable<T> work) {
        try {
            return work.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void runLogged(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            log.warn("control task failed", e);
        }
    }

    /** Stops the thread after the tasks already queued, waiting up to 2 s. */
    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(2, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            executor.shutdownNow();
        }
    }
}
