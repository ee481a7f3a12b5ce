package io.tollgate.filters.extauth;

import io.tollgate.core.filter.FilterHeaders;

/**
 * One header the authorization service asks to add to the request or to the response, and how.
 *
 * @param name the header's name, lower case
 * @param value its value
 * @param mode how it meets values the header already has
 */
record HeaderChange(String name, String value, Mode mode) {

    /** How a header to add meets the values it already has (Envoy's {@code append_action}). */
    enum Mode {
        /** Replaces them ({@code append: false}, {@code OVERWRITE_IF_EXISTS_OR_ADD}). */
        SET,
        /** Keeps them and adds this value ({@code append: true}, {@code APPEND_IF_EXISTS_OR_ADD}). */
        APPEND,
        /** Adds the header only when it has no value ({@code ADD_IF_ABSENT}). */
        ADD_IF_ABSENT,
        /** Replaces them only when there are some ({@code OVERWRITE_IF_EXISTS}). */
        OVERWRITE_IF_EXISTS
    }

    /**
     * Makes the change in {@code headers}. An RPC frame holds one value per key, so there an
     * appended value replaces the one it has.
     */
    void apply(FilterHeaders headers, boolean oneValuePerKey) {
        boolean present = headers.get(name) != null;
        switch (mode) {
            case SET -> headers.set(name, value);
            case APPEND -> {
                if (present && !oneValuePerKey) {
                    headers.add(name, value);
                } else {
                    headers.set(name, value);
                }
            }
            case ADD_IF_ABSENT -> {
                if (!present) {
                    headers.set(name, value);
                }
            }
            case OVERWRITE_IF_EXISTS -> {
                if (present) {
                    headers.set(name, value);
                }
            }
            default -> throw new IllegalStateException(mode.name());
        }
    }
}
