package io.tollgate.core.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the gateway discovers in service registries: the registries ({@code registries:}) and,
 * by cluster name, the providers that make each discovered cluster's hosts (a cluster's
 * {@code discovery:}). Kept beside the clusters rather than in them: the hosts of such a cluster
 * change with the registry, not with the file.
 *
 * @param registries the registries, names unique
 * @param clusters each discovered cluster's query, by cluster name
 * @param templates the clusters that stand for each request's own service, by cluster name
 */
public record DiscoveryConfig(List<RegistryConfig> registries, Map<String, ProviderQueryConfig> clusters,
        Map<String, ServiceTemplateConfig> templates) {

    /** No registry, nothing discovered. */
    public static final DiscoveryConfig NONE = new DiscoveryConfig(List.of(), Map.of(), Map.of());

    public DiscoveryConfig {
        registries = List.copyOf(registries);
        clusters = Map.copyOf(clusters);
        templates = Map.copyOf(templates);
    }

    /** The registry named {@code name}, if configured. */
    public Optional<RegistryConfig> registry(String name) {
        return registries.stream().filter(r -> r.name().equals(name)).findFirst();
    }
}
