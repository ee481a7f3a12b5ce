package io.tollgate.router.cluster;

import io.tollgate.core.config.EndpointConfig;
import java.util.HashMap;
import java.util.Map;

/**
 * Makes endpoints with equal labels share one label map: less memory for large clusters, and
 * the subset index resolves each distinct map once instead of once per host.
 */
final class LabelInterner {

    private final Map<Map<String, String>, Map<String, String>> maps = new HashMap<>();

    /** {@code endpoint}, or an equal one whose labels are the map already seen for equal labels. */
    EndpointConfig intern(EndpointConfig endpoint) {
        Map<String, String> shared = maps.putIfAbsent(endpoint.labels(), endpoint.labels());
        if (shared == null || shared == endpoint.labels()) {
            return endpoint;
        }
        return new EndpointConfig(endpoint.address(), endpoint.port(), endpoint.weight(), shared);
    }
}
