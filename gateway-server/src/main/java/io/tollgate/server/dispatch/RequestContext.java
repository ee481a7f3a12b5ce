package io.tollgate.server.dispatch;

import io.tollgate.router.route.Route;
import io.tollgate.server.exchange.ExchangeRecord;
import io.tollgate.server.filter.FilterRun;
import io.tollgate.server.filter.FilteredRequest;
import io.tollgate.server.snapshot.Snapshot;

/**
 * One request on its way through the {@link Dispatcher}, whatever its protocol: its routing view
 * (a protocol's subclass reads authority, path and headers from its own request), its record, and
 * what the dispatcher decided for it so far (the snapshot it is routed by, the route, its stream
 * filters, to which it is the {@link FilteredRequest}). It replaces the long parameter lists that
 * carried these from step to step; a downstream makes one per request, the only object the
 * dispatcher needs.
 *
 * <p>Confined to the request's event loop.
 */
public abstract class RequestContext implements FilteredRequest {

    private final String clientAddress;
    private ExchangeRecord record;
    private Snapshot snapshot;
    private Route route;
    private FilterRun filters;

    /** @param clientAddress the client's IP address as text, or null when unknown */
    protected RequestContext(String clientAddress) {
        this.clientAddress = clientAddress;
    }

    @Override
    public final String clientAddress() {
        return clientAddress;
    }

    /** The request's record for metrics and the access log. */
    public final ExchangeRecord record() {
        return record;
    }

    /** Sets the record, once, before the request is dispatched. */
    public final void record(ExchangeRecord record) {
        this.record = record;
    }

    /** The configuration the request is routed by, read once when it was dispatched. */
    public final Snapshot snapshot() {
        return snapshot;
    }

    /** The route chosen, or null when none matched (or before routing). */
    public final Route route() {
        return route;
    }

    /** The request's stream filters, null when its listener and route have none. */
    public final FilterRun filters() {
        return filters;
    }

    final void routed(Snapshot snapshot, Route route) {
        this.snapshot = snapshot;
        this.route = route;
    }

    final void filters(FilterRun filters) {
        this.filters = filters;
    }
}
