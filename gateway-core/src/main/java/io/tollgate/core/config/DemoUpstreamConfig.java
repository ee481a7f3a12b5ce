package io.tollgate.core.config;

/**
 * A tiny HTTP server the gateway starts in-process so that the default configuration answers
 * requests end to end with nothing else installed. Not meant for production traffic.
 */
public record DemoUpstreamConfig(String address, int port) {
}
