package io.tollgate.core.config;

/**
 * Where the admin REST API listens; loopback by default so that metrics scraping never exposes
 * operations to the network.
 */
public record AdminConfig(String address, int port) {
}
