package io.tollgate.server.exchange;

/**
 * Something that times out unless cancelled first, tracked by {@link Deadlines} without a task
 * of its own: the links of the list it waits in live in the object itself, so starting and
 * cancelling it allocates nothing.
 */
public abstract class Deadline {

    /** The lane this waits in, or null while it is not started. */
    Deadlines.Lane lane;
    Deadline previous;
    Deadline next;
    long dueNanos;

    /** Whether this is started and has neither expired nor been cancelled. */
    public final boolean pending() {
        return lane != null;
    }

    /** The deadline passed; called on the event loop, once, after this stopped being pending. */
    protected abstract void expired();
}
