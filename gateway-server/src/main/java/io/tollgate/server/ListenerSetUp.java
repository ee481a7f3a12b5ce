package io.tollgate.server;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.ListenerConfig;

/**
 * Binds or replaces a listener for a reload, which waits for its socket. {@link #run(ListenerConfig,
 * String, String, ListenerSetUp)} turns its failure (a BindException, which Netty throws undeclared,
 * a certificate or access log that cannot be used) into a ConfigException naming the listener, so
 * that the reload is refused whole.
 */
@FunctionalInterface
interface ListenerSetUp<T> {

    T run() throws InterruptedException;

    /** Runs {@code setUp} for listener {@code config}: {@code doing} and {@code failure} word its errors. */
    static <T> T run(ListenerConfig config, String doing, String failure, ListenerSetUp<T> setUp) {
        try {
            return setUp.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConfigException("listeners." + config.name() + ": interrupted while " + doing, e);
        } catch (RuntimeException e) {
            throw new ConfigException("listeners." + config.name() + ": " + failure + ": " + e.getMessage(), e);
        }
    }
}
