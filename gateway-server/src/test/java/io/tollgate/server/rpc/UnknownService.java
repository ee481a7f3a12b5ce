package io.tollgate.server.rpc;

/** A service no route serves. */
public interface UnknownService {

    String anything(String message);
}
