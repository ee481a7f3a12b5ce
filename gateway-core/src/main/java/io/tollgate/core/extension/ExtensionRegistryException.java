package io.tollgate.core.extension;

/**
 * The extensions on the class path cannot make a registry (a name registered twice in one kind, a
 * factory that cannot be loaded, one registered under the wrong kind): the gateway cannot start,
 * and the command line says why in one line instead of a stack trace.
 */
public final class ExtensionRegistryException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public ExtensionRegistryException(String message) {
        super(message);
    }

    public ExtensionRegistryException(String message, Throwable cause) {
        super(message, cause);
    }
}
