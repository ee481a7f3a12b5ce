package io.tollgate.core.extension;

import io.tollgate.core.config.ConfigNode;
import java.util.Set;

/**
 * One named extension (a load-balancing policy, a health checker, a protocol ...): it reads and
 * validates its own settings when the configuration is loaded, so that the modules which run it
 * only get settings already checked. Found by {@link java.util.ServiceLoader}: an implementation
 * MUST be public, have a public no-argument constructor and be listed in its module's
 * {@code META-INF/services/io.tollgate.core.extension.ExtensionFactory}.
 *
 * <p>Each kind of extension is an interface extending this one, in the module that runs it, that
 * fixes {@link #configType()} and adds the method making the runtime object (see
 * {@code LoadBalancerFactory} in gateway-router). {@link ExtensionRegistry} needs no change for a
 * new kind.
 *
 * @param <C> the immutable configuration record this kind of extension is configured by; it
 *     names the kind, so two kinds MUST NOT share one
 */
public interface ExtensionFactory<C> {

    /** The name configuration selects this extension by, e.g. {@code round_robin}; unique in its kind. */
    String name();

    /** The configuration record of this kind: the key of the kind in {@link ExtensionRegistry}. */
    Class<C> configType();

    /**
     * The keys this extension reads from the node given to {@link #parse}, beside those every
     * extension of its kind shares. A key that only other extensions of the kind read is an error
     * when given to this one. None by default.
     */
    default Set<String> keys() {
        return Set.of();
    }

    /**
     * Reads and validates {@link #keys()} from {@code node} and returns {@code base} with them
     * applied; {@code base} holds the kind's defaults and shared settings. Errors MUST be made with
     * {@link ConfigNode#error} so that they name the field. Runs when a configuration is loaded,
     * never per request. Returns {@code base} by default, for extensions without settings.
     */
    default C parse(ConfigNode node, C base) {
        return base;
    }
}
