package io.tollgate.core.config;

/**
 * A header to add.
 *
 * @param append when false, replaces any value already present
 */
public record HeaderValueConfig(String name, String value, boolean append) {
}
