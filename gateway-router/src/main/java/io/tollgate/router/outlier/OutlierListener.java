package io.tollgate.router.outlier;

import io.tollgate.router.host.Host;
import java.time.Duration;

/** Hears about ejections, so that metrics and logs stay out of the detector's logic. */
public interface OutlierListener {

    /** Hears nothing. */
    OutlierListener NONE = new OutlierListener() {
        @Override
        public void ejected(Host host, Duration duration) {
        }

        @Override
        public void returned(Host host) {
        }

        @Override
        public void ejectionRefused(Host host) {
        }
    };

    /** {@code host} left rotation for {@code duration}. */
    void ejected(Host host, Duration duration);

    /** {@code host}'s ejection ended. */
    void returned(Host host);

    /** {@code host} deserved an ejection, but the cluster already had as many as it allows. */
    void ejectionRefused(Host host);
}
