package io.tollgate.core.config;

/**
 * A configuration was rejected. The message starts with the path of the offending field, for
 * example {@code listeners[0].route_config.virtual_hosts[1].routes[2].match.prefix: must start
 * with '/'}.
 */
public final class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
