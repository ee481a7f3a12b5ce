package io.tollgate.router.cluster;

import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.SubsetLbConfig;
import io.tollgate.core.config.SubsetSelectorConfig;
import io.tollgate.router.TestRequest;
import io.tollgate.router.host.Host;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Subset load balancing written the obvious way, for comparison: every request scans every host
 * against its metadata. Answers the ids of the hosts a request may go to, or null.
 */
final class SubsetReference {

    /** The outcome, to compare with {@link SubsetStats}. */
    enum Outcome { EXACT, KEYS_SUBSET, POLICY, NONE }

    record Answer(Set<String> hostIds, Outcome outcome) {
    }

    private final SubsetLbConfig config;
    private final Map<String, EndpointConfig> endpoints = new LinkedHashMap<>();
    private final Set<String> unhealthy = new TreeSet<>();

    SubsetReference(SubsetLbConfig config) {
        this.config = config;
    }

    void put(EndpointConfig endpoint) {
        endpoints.put(Host.idOf(endpoint), endpoint);
    }

    void remove(String id) {
        endpoints.remove(id);
        unhealthy.remove(id);
    }

    void healthy(String id, boolean healthy) {
        if (healthy) {
            unhealthy.remove(id);
        } else {
            unhealthy.add(id);
        }
    }

    Answer answer(TestRequest request, Map<String, String> routeMatch) {
        return answer(metadata(request, routeMatch));
    }

    private Map<String, String> metadata(TestRequest request, Map<String, String> routeMatch) {
        Map<String, String> metadata = new HashMap<>(routeMatch);
        config.headerPrefix().ifPresent(prefix -> {
            Set<String> known = new TreeSet<>(config.defaultSubset().keySet());
            config.selectors().forEach(s -> known.addAll(s.keys()));
            for (String key : known) {
                String value = request.header(prefix + key);
                if (value != null) {
                    metadata.put(key, value);
                }
            }
        });
        return metadata;
    }

    private Answer answer(Map<String, String> metadata) {
        SubsetSelectorConfig selector = selector(metadata.keySet());
        if (selector != null && !matching(metadata).isEmpty()) {
            return new Answer(matching(metadata), Outcome.EXACT);
        }
        while (selector != null) {
            switch (selector.fallbackPolicy()) {
                case KEYS_SUBSET -> {
                    Map<String, String> smaller = new HashMap<>(metadata);
                    smaller.keySet().retainAll(selector.fallbackKeysSubset());
                    if (!matching(smaller).isEmpty()) {
                        return new Answer(matching(smaller), Outcome.KEYS_SUBSET);
                    }
                    metadata = smaller;
                    selector = selector(smaller.keySet());
                }
                case NOT_DEFINED -> selector = null;
                case NO_FALLBACK -> {
                    return new Answer(null, Outcome.NONE);
                }
                case ANY_ENDPOINT -> {
                    return policy(matching(Map.of()));
                }
                case DEFAULT_SUBSET -> {
                    return policy(matching(config.defaultSubset()));
                }
            }
        }
        return switch (config.fallbackPolicy()) {
            case NO_FALLBACK -> new Answer(null, Outcome.NONE);
            case ANY_ENDPOINT -> policy(matching(Map.of()));
            case DEFAULT_SUBSET -> policy(matching(config.defaultSubset()));
        };
    }

    private static Answer policy(Set<String> hosts) {
        return hosts.isEmpty() ? new Answer(null, Outcome.NONE) : new Answer(hosts, Outcome.POLICY);
    }

    private SubsetSelectorConfig selector(Set<String> keys) {
        return config.selectors().stream().filter(s -> Set.copyOf(s.keys()).equals(keys)).findFirst().orElse(null);
    }

    /** The healthy hosts carrying every label of {@code metadata}. */
    private Set<String> matching(Map<String, String> metadata) {
        return endpoints.values().stream()
                .filter(e -> !unhealthy.contains(Host.idOf(e)))
                .filter(e -> metadata.entrySet().stream().allMatch(m -> m.getValue().equals(e.labels().get(m.getKey()))))
                .map(Host::idOf)
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
