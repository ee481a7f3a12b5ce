package io.tollgate.admin;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A bound listener as the admin API shows it: unlike its configuration, it carries the port
 * actually bound when the configuration asked for port 0.
 */
public record ListenerInfo(String name, String address, int port, List<String> protocols) {

    public ListenerInfo {
        requireNonNull(name, "name");
        requireNonNull(address, "address");
        protocols = List.copyOf(protocols);
    }
}
