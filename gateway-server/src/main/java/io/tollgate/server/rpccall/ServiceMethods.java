package io.tollgate.server.rpccall;

import io.tollgate.protocols.generic.MethodCandidate;
import java.util.List;

/**
 * The methods a service registry published for a service whose providers are a cluster's hosts
 * (Dubbo's service definitions), the first source of an HTTP call's parameter types. Read by event
 * loops without a lock, from what the registry's watches last published.
 */
public interface ServiceMethods {

    /** No registry: no methods are ever known. */
    ServiceMethods NONE = (cluster, service) -> List.of();

    /**
     * The methods of {@code service} (an interface name) published by the registry whose providers
     * make {@code cluster}; empty when the cluster is not discovered, serves another service, or the
     * registry published none.
     */
    List<MethodCandidate> methods(String cluster, String service);
}
