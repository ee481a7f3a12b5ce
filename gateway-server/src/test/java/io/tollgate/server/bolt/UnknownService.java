package io.tollgate.server.bolt;

/** A service no route serves. */
public interface UnknownService {

    String anything(String message);
}
