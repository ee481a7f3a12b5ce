package io.tollgate.server.rpc;

/** A service routed to an upstream that never answers, so that tests can end calls their own way. */
public interface HeldService {

    String hold(String message);
}
