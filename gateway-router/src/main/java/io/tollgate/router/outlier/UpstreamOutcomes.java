package io.tollgate.router.outlier;

import io.tollgate.router.host.Host;

/**
 * Receives the outcome of every upstream request, so that passive health checking sees what
 * real traffic sees. Implementations MUST be safe to call from every event loop at once and
 * cheap on success, since they run on the request path.
 */
public interface UpstreamOutcomes {

    /** Ignores every outcome: for a cluster without outlier detection. */
    UpstreamOutcomes IGNORED = new UpstreamOutcomes() {
        @Override
        public void responded(Host host, int status) {
        }

        @Override
        public void failed(Host host, UpstreamFailure failure) {
        }
    };

    /** {@code host} answered with {@code status}. */
    void responded(Host host, int status);

    /** The request to {@code host} failed without a (complete) answer. */
    void failed(Host host, UpstreamFailure failure);
}
