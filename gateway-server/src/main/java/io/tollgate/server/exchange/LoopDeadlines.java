package io.tollgate.server.exchange;

import io.netty.util.concurrent.EventExecutor;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link Deadlines} of each event loop of a process, one per loop whatever the protocol, so
 * that every timeout of a loop's exchanges waits on the same few timers.
 */
public final class LoopDeadlines {

    private final Map<EventExecutor, Deadlines> byLoop = new ConcurrentHashMap<>();

    /** The timeouts of {@code loop}, created on first use; MUST be used on that loop only. */
    public Deadlines of(EventExecutor loop) {
        Deadlines deadlines = byLoop.get(loop);
        return deadlines != null ? deadlines : byLoop.computeIfAbsent(loop, Deadlines::new);
    }
}
