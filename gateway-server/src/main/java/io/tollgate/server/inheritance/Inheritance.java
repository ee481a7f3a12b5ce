package io.tollgate.server.inheritance;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.unix.FileDescriptor;
import java.util.List;
import java.util.Map;

/**
 * What a gateway starts with after a hot restart: the listening sockets (by listener name) and
 * admin socket the previous process handed over, and that process's counters. A gateway started
 * normally inherits {@link #NONE}.
 */
public final class Inheritance {

    /** Nothing handed over: every socket bound afresh, counters from zero. */
    public static final Inheritance NONE = new Inheritance(Map.of(), null, List.of());

    private final Map<String, FileDescriptor> listeners;
    private final FileDescriptor admin;
    private final List<CounterValue> counters;

    public Inheritance(Map<String, FileDescriptor> listeners, FileDescriptor admin, List<CounterValue> counters) {
        this.listeners = Map.copyOf(listeners);
        this.admin = admin;
        this.counters = List.copyOf(counters);
    }

    /** The listening socket of listener {@code name} handed over, or null: bind one. */
    public FileDescriptor listenerSocket(String name) {
        return listeners.get(name);
    }

    /** The admin API's listening socket handed over, or null: bind one. */
    public FileDescriptor adminSocket() {
        return admin;
    }

    /** Starts {@code registry}'s counters from the previous process's values. */
    public void addCountersTo(MeterRegistry registry) {
        HotRestartMeters.addAll(counters, registry);
    }
}
