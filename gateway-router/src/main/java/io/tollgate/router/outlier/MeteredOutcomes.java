package io.tollgate.router.outlier;

import io.tollgate.router.host.Host;

/**
 * Counts each outcome on its host's {@link io.tollgate.router.host.HostMeters} and passes it on to
 * the cluster's outlier detector (or drops it, without one): every attempt already reports its
 * outcome here, so the per-host figures cost the request path one increment and no new call site.
 */
final class MeteredOutcomes implements UpstreamOutcomes {

    /** For a cluster without outlier detection: counts only. */
    static final MeteredOutcomes COUNT_ONLY = new MeteredOutcomes(UpstreamOutcomes.IGNORED);

    private final UpstreamOutcomes next;

    MeteredOutcomes(UpstreamOutcomes next) {
        this.next = next;
    }

    @Override
    public void responded(Host host, int status) {
        host.meters().responded(status);
        next.responded(host, status);
    }

    @Override
    public void failed(Host host, UpstreamFailure failure) {
        host.meters().failed();
        next.failed(host, failure);
    }
}
