package io.tollgate.server.dispatch;

import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.metrics.ListenerMetrics;
import io.tollgate.server.exchange.ListenerRecords;
import io.tollgate.server.overload.OverloadGuard;
import io.tollgate.server.snapshot.Snapshot;
import java.util.function.Supplier;

/**
 * What every request of one listener and protocol shares, whatever the protocol: the listener's
 * configuration, where its records go, and its {@link Dispatcher}. A protocol's proxy
 * ({@code HttpProxy}, {@code RpcProxy}) adds what its own connections share (codecs, limits,
 * upstream pools) and makes their handlers.
 */
public abstract class ListenerProxy {

    private final ListenerConfig listener;
    private final ListenerRecords records;
    private final Dispatcher dispatcher;

    /**
     * @param snapshot the configuration of the moment, which each request is routed by
     * @param overload while it says so, requests are refused as overload in the protocol's form
     */
    protected ListenerProxy(ListenerConfig listener, ListenerRecords records, Supplier<Snapshot> snapshot,
            OverloadGuard overload) {
        this.listener = listener;
        this.records = records;
        this.dispatcher = new Dispatcher(snapshot, overload, records);
    }

    /** The configuration of the listener this proxy serves. */
    public final ListenerConfig listenerConfig() {
        return listener;
    }

    /** The meters of the listener this proxy serves. */
    public final ListenerMetrics listenerMetrics() {
        return records.listenerMetrics();
    }

    /** Where the records of this listener's exchanges go. */
    public final ListenerRecords records() {
        return records;
    }

    /** The path of this listener's requests from the overload check to their exchange. */
    public final Dispatcher dispatcher() {
        return dispatcher;
    }
}
