package io.tollgate.core.config;

/**
 * The settings a listener gives one protocol it serves, read by that protocol's
 * {@link io.tollgate.core.extension.ProtocolFactory} from the listener's block named after the protocol ({@code bolt:},
 * {@code dubbo:} ...). Immutable, as all configuration is.
 */
public interface ProtocolOptions {

    /** The options of a protocol that has no settings of its own. */
    ProtocolOptions NONE = new ProtocolOptions() {
        @Override
        public String toString() {
            return "ProtocolOptions.NONE";
        }
    };
}
