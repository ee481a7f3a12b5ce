package io.tollgate.core.filter;

import java.util.Set;

/**
 * Implemented by a stream filter's settings that name clusters (a mirror's shadow cluster), so
 * that the loader refuses a name no cluster has, as it does for routes, instead of the filter
 * failing every request at run time.
 */
public interface ClusterReferences {

    /** The clusters these settings name. */
    Set<String> clusters();
}
