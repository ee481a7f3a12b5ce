package io.tollgate.admin;

import io.tollgate.discovery.MethodSignature;
import java.util.List;

/**
 * A service whose providers, found in a service registry, are the hosts of a cluster, as
 * {@code /services} lists it.
 *
 * @param service the service: Dubbo's {@code [group/]interface[:version]}, SOFARPC's {@code interface:version[:uniqueId]}
 * @param kind whose registrations: {@code dubbo} or {@code sofa}
 * @param registry the registry's name
 * @param cluster the cluster its providers make
 * @param methods its methods as its providers published them (Dubbo's service definitions);
 *     empty when the registry publishes none
 */
public record DiscoveredService(String service, String kind, String registry, String cluster,
        List<MethodSignature> methods) {

    public DiscoveredService {
        methods = List.copyOf(methods);
    }
}
