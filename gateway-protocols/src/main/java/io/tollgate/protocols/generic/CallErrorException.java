package io.tollgate.protocols.generic;

/** Carries a {@link CallError} out of request parsing and method choice, where the call stops. */
public final class CallErrorException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient CallError error;

    public CallErrorException(CallError error) {
        super(error.message(), null, false, false);
        this.error = error;
    }

    public CallError error() {
        return error;
    }
}
