package io.tollgate.server.rpccall;

/** An enum, which JSON carries as its constant's name. */
public enum Status { NEW, PAID }
