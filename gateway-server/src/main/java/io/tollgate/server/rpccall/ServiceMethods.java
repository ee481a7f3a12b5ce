package io.tollgate.server.rpccall;

import java.util.List;

/**
 * The methods a service registry published for a service whose providers are a cluster's hosts
 * (Dubbo's service definitions), the first source of an HTTP call's parameter types. Read by event
 * loops without a lock, from what the registry's watches last published.
 */
public interface ServiceMethods {

    /** No registry: no methods are ever known. */
    ServiceMethods NONE = (cluster, service) -> PublishedTypes.NONE;

    /**
     * The methods and classes of {@code service} (an interface name) published by the registry
     * whose providers make {@code cluster}; {@link PublishedTypes#NONE} when the cluster is not
     * discovered, serves another service, or the registry published none.
     */
    PublishedTypes methods(String cluster, String service);

    /**
     * The services whose providers make {@code cluster}, or, when {@code cluster} names a per-service
     * template, the services it serves now; empty when none is discovered. Read for a route's
     * OpenAPI document.
     */
    default List<RegisteredService> services(String cluster) {
        return List.of();
    }
}
