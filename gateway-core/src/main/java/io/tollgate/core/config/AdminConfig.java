package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * Where the admin REST API listens; loopback by default so that metrics scraping never exposes
 * operations to the network. With a token, every endpoint that changes the process (the POST ones)
 * requires {@code Authorization: Bearer <token>}; bound to any other address, a token is
 * mandatory. Read-only endpoints (stats, Prometheus, readiness) stay open either way.
 *
 * @param address the address bound
 * @param port the port bound; 0 picks a free one
 * @param token the bearer token mutating endpoints require, if any; never logged
 */
public record AdminConfig(String address, int port, Optional<String> token) {

    public AdminConfig {
        requireNonNull(address, "address");
        requireNonNull(token, "token");
    }

    /** An admin API without a token, which only a loopback address may have. */
    public AdminConfig(String address, int port) {
        this(address, port, Optional.empty());
    }

    /** Shows whether a token is set, never the token itself. */
    @Override
    public String toString() {
        return "AdminConfig[address=" + address + ", port=" + port + ", token=" + (token.isPresent() ? "<set>" : "<none>")
                + "]";
    }
}
