package io.tollgate.benchmarks.subset;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.SubsetLbConfig;
import io.tollgate.core.config.SubsetSelectorConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * The input of MOSN's subset benchmark: hosts labelled {@code zone} (3 values) and
 * {@code physics}, {@code mosn_aig}, {@code mosn_version} (1 value each), with 15 selectors, one
 * for every non-empty combination of the 4 keys.
 */
final class MosnLabels {

    static final List<String> KEYS = List.of("mosn_aig", "mosn_version", "physics", "zone");
    static final List<String> ZONES = List.of("zone-a", "zone-b", "zone-c");

    private MosnLabels() {
    }

    /** {@code count} endpoints on 10.x.y.z:8080, zones drawn at random with a fixed seed. */
    static List<EndpointConfig> endpoints(int count) {
        Random random = new Random(7);
        List<EndpointConfig> endpoints = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            endpoints.add(endpoint(i, ZONES.get(random.nextInt(ZONES.size()))));
        }
        return endpoints;
    }

    /** Endpoint number {@code i} in {@code zone}. */
    static EndpointConfig endpoint(int i, String zone) {
        String address = "10." + (i >> 16 & 0xff) + "." + (i >> 8 & 0xff) + "." + (i & 0xff);
        return new EndpointConfig(address, 8080, 1, Map.of("zone", zone, "physics", "machine",
                "mosn_aig", "aig-1", "mosn_version", "1.0.0"));
    }

    static SubsetLbConfig subsets() {
        List<SubsetSelectorConfig> selectors = new ArrayList<>();
        for (int combination = 1; combination < 1 << KEYS.size(); combination++) {
            List<String> keys = new ArrayList<>();
            for (int k = 0; k < KEYS.size(); k++) {
                if ((combination & 1 << k) != 0) {
                    keys.add(KEYS.get(k));
                }
            }
            selectors.add(new SubsetSelectorConfig(keys, SubsetSelectorConfig.Fallback.NOT_DEFINED, List.of()));
        }
        return new SubsetLbConfig(SubsetLbConfig.FallbackPolicy.ANY_ENDPOINT, Map.of(), selectors, Optional.of("x-subset-"));
    }

    static ClusterConfig cluster(int hosts, String lbPolicy) {
        return new ClusterConfig("mosn", lbPolicy, endpoints(hosts), Duration.ofSeconds(1), 1, 1, Duration.ofSeconds(1))
                .withSubsetLbConfig(Optional.of(subsets()));
    }
}
