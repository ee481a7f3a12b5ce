package io.tollgate.core.config;

import java.util.List;

/**
 * A configuration was rejected. The message starts with the path of the offending field, for
 * example {@code listeners[0].route_config.virtual_hosts[1].routes[2].match.prefix: must start
 * with '/'}. A document with several errors is rejected with all of them, one a line in the
 * order of the document ({@link #errors()}).
 */
public final class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> errors;
    /** The node the error is about, when a {@link ConfigNode} made it: where it sorts in the document. */
    private final transient ConfigNode origin;

    public ConfigException(String message) {
        this(message, (Throwable) null);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
        this.errors = message == null ? List.of() : List.of(message);
        this.origin = null;
    }

    /** Several errors, each a line of the message, in the order given; at least one. */
    public ConfigException(List<String> errors) {
        super(String.join("\n", errors));
        if (errors.isEmpty()) {
            throw new IllegalArgumentException("errors: [] (expected at least one)");
        }
        this.errors = List.copyOf(errors);
        this.origin = null;
    }

    ConfigException(String message, ConfigNode origin) {
        super(message);
        this.errors = List.of(message);
        this.origin = origin;
    }

    /** Each error of the rejected configuration, beginning with its path, in the order of the document. */
    public List<String> errors() {
        return errors;
    }

    ConfigNode origin() {
        return origin;
    }
}
