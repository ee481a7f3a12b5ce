package io.tollgate.server.generic;

/** An enum, which JSON carries as its constant's name. */
public enum Status { NEW, PAID }
