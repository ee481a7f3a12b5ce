package io.tollgate.filters.mirror;

import io.tollgate.core.filter.ClusterReferences;
import java.util.Set;

/**
 * What a {@code mirror} filter was configured with.
 *
 * @param cluster the shadow cluster copies go to
 * @param partsPerMillion how many requests in a million are copied (from {@code percent})
 * @param maxBodyBytes the largest HTTP request body copied; a request with more is not shadowed
 * @param seed the seed of the choice of requests, for repeatable tests; null for an unseeded choice
 */
public record MirrorSettings(String cluster, int partsPerMillion, long maxBodyBytes, Long seed)
        implements ClusterReferences {

    @Override
    public Set<String> clusters() {
        return Set.of(cluster);
    }


    /** All of a million: every request is copied. */
    public static final int ALL = 1_000_000;
    /** The default body limit, 64 KiB. */
    public static final long DEFAULT_MAX_BODY_BYTES = 64 * 1024;
}
