package io.tollgate.server.http;

import io.tollgate.core.metrics.ClusterMetrics;
import io.tollgate.core.metrics.ConnectionErrorMeters;
import io.tollgate.server.upstream.http.PoolEvents;

/** Counts a cluster's connection pool events in its metrics. */
final class ClusterPoolEvents implements PoolEvents {

    private final ClusterMetrics metrics;

    ClusterPoolEvents(ClusterMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void connectionOpened() {
        metrics.connectionOpened();
    }

    @Override
    public void connectionClosed() {
        metrics.connectionClosed();
    }

    @Override
    public void connectFailure() {
        metrics.connectFailure();
    }

    @Override
    public void hostDown() {
        metrics.hostDown();
    }

    @Override
    public void overflow() {
        metrics.poolOverflow();
    }

    @Override
    public void connectionOverflow() {
        metrics.connectionOverflow();
    }

    @Override
    public ConnectionErrorMeters connectionErrors() {
        return metrics.connectionErrors();
    }
}
