package io.tollgate.core.metrics;

/**
 * What an {@code original_dst} cluster refused and made since it was built; the router implements
 * it, and {@link ClusterMetrics} publishes it as counters.
 */
public interface OriginalDstCounts {

    /** Connections or requests with no original destination: not redirected, they reached the listener itself. */
    long notRedirected();

    /** Requests whose {@code x-envoy-original-dst-host} header is not an IP address and port. */
    long badHeader();

    /** New destinations refused because the cluster held {@code max_hosts} destinations in use. */
    long overflow();

    /** Destinations made hosts. */
    long hostsMade();

    /** Hosts dropped after their idle timeout. */
    long hostsDropped();
}
