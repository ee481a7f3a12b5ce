package io.tollgate.server.proxyprotocol;

/** A PROXY protocol header that breaks the specification; its message says how, for the debug log. */
public final class MalformedProxyHeaderException extends Exception {

    private static final long serialVersionUID = 1L;

    MalformedProxyHeaderException(String message) {
        super(message, null, false, false);
    }
}
