package io.tollgate.server.snapshot;

import io.tollgate.core.metrics.ClusterMetrics;
import io.tollgate.router.host.Host;
import io.tollgate.router.outlier.OutlierListener;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Counts and logs the outlier ejections of one cluster. */
public final class ClusterOutlierEvents implements OutlierListener {

    private static final Logger log = LoggerFactory.getLogger(ClusterOutlierEvents.class);

    private final String cluster;
    private final ClusterMetrics metrics;

    public ClusterOutlierEvents(String cluster, ClusterMetrics metrics) {
        this.cluster = cluster;
        this.metrics = metrics;
    }

    @Override
    public void ejected(Host host, Duration duration) {
        metrics.hostEjected();
        log.warn("cluster {}: host {} ejected for {} ms after consecutive failures", cluster, host, duration.toMillis());
    }

    @Override
    public void returned(Host host) {
        metrics.hostReturned();
        log.info("cluster {}: host {} back from ejection", cluster, host);
    }

    @Override
    public void ejectionRefused(Host host) {
        metrics.ejectionOverflow();
        log.debug("cluster {}: host {} not ejected, max_ejection_percent reached", cluster, host);
    }
}
