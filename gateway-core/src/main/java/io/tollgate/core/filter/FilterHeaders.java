package io.tollgate.core.filter;

import java.util.List;
import java.util.function.BiConsumer;

/**
 * A request's or a response's headers as a filter sees them, whatever carries them: HTTP headers,
 * or an RPC protocol's header map. Names are matched without regard to case. Changing them is
 * possible where the protocol can carry the change ({@link #writable()}): HTTP headers always,
 * an RPC frame's headers only where its codec can rewrite them.
 */
public interface FilterHeaders {

    /** The first value of {@code name}, or null. */
    String get(String name);

    /** Every value of {@code name}, in order; empty when there is none. */
    List<String> getAll(String name);

    /**
     * Gives {@code action} each name and value, in order, where the protocol can list its headers
     * (HTTP); does nothing where it reads them only by name (an RPC frame's headers), so a filter
     * that needs an RPC header names it.
     */
    default void forEach(BiConsumer<String, String> action) {
    }

    /** Whether {@link #set}, {@link #add} and {@link #remove} change what is sent. */
    boolean writable();

    /**
     * Replaces every value of {@code name} with {@code value}.
     *
     * @throws UnsupportedOperationException when not {@link #writable()}
     */
    void set(String name, String value);

    /**
     * Adds a value to {@code name}, keeping those it has.
     *
     * @throws UnsupportedOperationException when not {@link #writable()}
     */
    void add(String name, String value);

    /**
     * Removes every value of {@code name}.
     *
     * @throws UnsupportedOperationException when not {@link #writable()}
     */
    void remove(String name);
}
