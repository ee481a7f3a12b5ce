package io.tollgate.discovery.zookeeper;

import java.util.concurrent.Executor;

/**
 * A task run once on an executor per burst of requests: every request made before the run starts
 * is served by that one run. Registry events come in bursts (a cache's first read, a deployment);
 * one publication each would make the gateway apply its configuration once per node. Requested
 * on the control thread only.
 */
final class Coalesced {

    private final Executor executor;
    private final Runnable task;
    private boolean queued;

    Coalesced(Executor executor, Runnable task) {
        this.executor = executor;
        this.task = task;
    }

    /** Runs the task on the executor soon, unless a run is queued already. */
    void request() {
        if (!queued) {
            queued = true;
            executor.execute(() -> {
                queued = false;
                task.run();
            });
        }
    }
}
