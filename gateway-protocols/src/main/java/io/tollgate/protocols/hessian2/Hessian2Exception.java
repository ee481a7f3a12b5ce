package io.tollgate.protocols.hessian2;

/** Hessian2 bytes that are not a value of the dialect read, or a value that cannot be written. */
public final class Hessian2Exception extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public Hessian2Exception(String message) {
        super(message, null, false, false);
    }
}
