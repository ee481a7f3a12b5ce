package io.tollgate.server.rpc;

import io.tollgate.core.route.RouteRequest;
import java.util.concurrent.CompletableFuture;

/**
 * The clusters made per service from a template cluster (service discovery's {@code per_service}),
 * as an event loop finds them for a call routed to the template: without a lock, from what the
 * control thread published. A template has no hosts of its own, so a call to it is looked up
 * here only once the template found no host; other calls never are.
 */
public interface ServiceClusters {

    /** No templates: every lookup answers null. */
    ServiceClusters NONE = (template, request) -> null;

    /**
     * What a lookup found: the name of the served cluster of the call's service, or, while that
     * cluster is not served yet, what completes (on another thread) once it is, or once it is
     * known the registry has no such service, or after a bound.
     */
    record Lookup(String cluster, CompletableFuture<Void> ready) {
    }

    /**
     * The cluster of {@code request}'s service made from cluster {@code template}; null when
     * {@code template} is no template or the request names no service.
     */
    Lookup lookup(String template, RouteRequest request);
}
