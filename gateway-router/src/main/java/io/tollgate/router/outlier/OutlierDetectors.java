package io.tollgate.router.outlier;

import static java.util.Objects.requireNonNull;

import io.tollgate.core.config.OutlierDetectionConfig;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.ClusterManager;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The outlier detectors of one configuration snapshot, one per cluster that configures outlier
 * detection. Immutable once built; the detectors themselves hold live state.
 */
public final class OutlierDetectors {

    private final Map<String, OutlierDetector> detectors;
    /** Where each cluster with a detector reports outcomes: counted on the host, then detected. */
    private final Map<String, UpstreamOutcomes> outcomes = new HashMap<>();

    private OutlierDetectors(Map<String, OutlierDetector> detectors) {
        this.detectors = detectors;
        detectors.forEach((cluster, detector) -> outcomes.put(cluster, new MeteredOutcomes(detector)));
    }

    /**
     * Builds a detector for each cluster with {@code outlier_detection}.
     *
     * @param listeners the listener of each cluster, by cluster name
     * @param control the control thread, where the detectors decide ejections
     */
    public static OutlierDetectors build(ClusterManager clusters, Function<String, OutlierListener> listeners,
            LongSupplier nanoClock, Executor control) {
        return new OutlierDetectors(Map.of()).next(clusters, Set.of(), listeners, nanoClock, control);
    }

    /**
     * The detectors of the next snapshot, whose clusters are {@code clusters}: a cluster of
     * {@code kept} (the same object as in this snapshot, its hosts updated in place) whose outlier
     * configuration is unchanged keeps its detector, which learns the cluster's current hosts and
     * keeps what it knew of those that stay; every other cluster gets a new detector. Runs on the
     * control thread.
     */
    public OutlierDetectors next(ClusterManager clusters, Set<Cluster> kept,
            Function<String, OutlierListener> listeners, LongSupplier nanoClock, Executor control) {
        requireNonNull(listeners, "listeners");
        requireNonNull(nanoClock, "nanoClock");
        Map<String, OutlierDetector> next = new LinkedHashMap<>();
        for (Cluster cluster : clusters.clusters()) {
            OutlierDetectionConfig config = cluster.config().outlierDetection().orElse(null);
            if (config == null) {
                continue;
            }
            OutlierDetector previous = kept.contains(cluster) ? detectors.get(cluster.name()) : null;
            if (previous != null && previous.config().equals(config)) {
                previous.retain(cluster.hosts());
                next.put(cluster.name(), previous);
            } else {
                next.put(cluster.name(), new OutlierDetector(config, cluster.hosts(), listeners.apply(cluster.name()),
                        nanoClock, control));
            }
        }
        return new OutlierDetectors(next);
    }

    /**
     * Where to report the outcomes of requests to a cluster: each is counted on its host's meters
     * and, when the cluster has outlier detection, detected.
     */
    public UpstreamOutcomes outcomes(String cluster) {
        return outcomes.getOrDefault(cluster, MeteredOutcomes.COUNT_ONLY);
    }

    /** The detector of a cluster, or null when it has none. */
    public OutlierDetector detector(String cluster) {
        return detectors.get(cluster);
    }

    /** Every detector, to be ticked. */
    public Collection<OutlierDetector> all() {
        return detectors.values();
    }
}
