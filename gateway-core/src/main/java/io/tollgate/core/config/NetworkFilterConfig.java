package io.tollgate.core.config;

import java.util.List;

/**
 * The settings of one network filter of a listener's {@code network_filters}, as its factory read
 * them when the configuration was loaded: the kind's key in the
 * {@link io.tollgate.core.extension.ExtensionRegistry}. Implementations are immutable records.
 */
public interface NetworkFilterConfig {

    /** The settings of a filter that has none of its own. */
    NetworkFilterConfig NONE = new NetworkFilterConfig() {
        @Override
        public String toString() {
            return "NetworkFilterConfig.NONE";
        }
    };

    /**
     * Whether this filter ends the chain by serving the connection's bytes itself, as
     * {@code tcp_proxy} does; a terminal filter MUST be the last of its listener's chain, and its
     * listener serves the protocol {@code tcp} only. False by default.
     */
    default boolean terminal() {
        return false;
    }

    /**
     * Whether this filter needs the connection's bytes ({@link io.tollgate.core.filter.NetworkFilter#onRead},
     * {@link io.tollgate.core.filter.NetworkFilter#onWrite}); true by default. A TCP proxy moves bytes with {@code splice(2)},
     * past every filter, only when no filter of its listener needs them.
     */
    default boolean inspectsBytes() {
        return true;
    }

    /** The clusters this filter sends to, checked to exist when the configuration is loaded; none by default. */
    default List<String> clusters() {
        return List.of();
    }
}
