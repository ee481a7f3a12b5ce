package io.tollgate.discovery.zookeeper;

import java.util.concurrent.Executor;

/**
 * When the oldest registry event not yet published was received: a watch hands Curator the
 * executor {@link #stamping} makes, which notes the time Curator delivers each event (on its own
 * thread, before the event waits for the control thread), and takes the oldest noted time when it
 * publishes. Confined to the control thread, apart from the stamp taken on Curator's thread.
 */
final class EventStamps {

    private long oldestNanos;

    /** {@code control}, noting when each task was handed to it before the task runs. */
    Executor stamping(Executor control) {
        return task -> {
            long receivedAt = System.nanoTime();
            control.execute(() -> {
                note(receivedAt);
                task.run();
            });
        };
    }

    /** Notes an event received at {@code receivedAtNanos} (0: none); keeps the oldest. */
    void note(long receivedAtNanos) {
        if (receivedAtNanos != 0 && (oldestNanos == 0 || receivedAtNanos - oldestNanos < 0)) {
            oldestNanos = receivedAtNanos;
        }
    }

    /** The oldest event noted since the last take, or 0; forgets it. */
    long take() {
        long oldest = oldestNanos;
        oldestNanos = 0;
        return oldest;
    }
}
