package io.tollgate.core.tls;

/**
 * A PEM file is missing, unreadable, or holds no certificate or key the gateway can use; the
 * message names the file and what was expected of it.
 */
public final class PemFileException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public PemFileException(String message) {
        super(message);
    }
}
