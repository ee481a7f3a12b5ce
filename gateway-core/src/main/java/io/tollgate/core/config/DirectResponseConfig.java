package io.tollgate.core.config;

/** Answers a request from the gateway itself with a fixed status and body. */
public record DirectResponseConfig(int status, String body) {
}
