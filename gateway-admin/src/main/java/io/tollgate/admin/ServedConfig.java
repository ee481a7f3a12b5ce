package io.tollgate.admin;

import io.tollgate.core.config.GatewayConfig;

/**
 * A configuration together with the version it was applied as, both read from one published
 * object, so that a reload between two reads can never pair one version with another's
 * configuration.
 */
public interface ServedConfig {

    /** The configuration being served. */
    GatewayConfig config();

    /** Its version: 1 at start, one more for each applied reload. */
    long version();
}
