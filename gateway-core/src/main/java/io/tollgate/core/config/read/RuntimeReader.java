package io.tollgate.core.config.read;

import io.tollgate.core.config.AdminConfig;
import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.ConfigWatchConfig;
import io.tollgate.core.config.DemoUpstreamConfig;
import io.tollgate.core.config.DrainConfig;
import io.tollgate.core.config.OverloadConfig;
import io.tollgate.core.config.UpgradeConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the sections that set up the process rather than its traffic: the admin API (its address
 * and bearer token), the demo upstream, overload protection, drain, the upgrade socket and the
 * watch of the configuration file.
 */
final class RuntimeReader {

    /** sun_path of a Unix domain socket address holds 108 bytes with the terminating NUL. */
    private static final int MAX_UNIX_SOCKET_PATH_BYTES = 107;

    private RuntimeReader() {
    }

    /**
     * The admin API's settings: a token (inline or from a file) makes mutating endpoints require
     * it; an address other than loopback requires one.
     */
    static AdminConfig admin(ConfigNode n) {
        n.allowOnly(Set.of("address", "port", "token", "token_file"));
        String address = n.string("address", "127.0.0.1");
        if (n.has("token") && n.has("token_file")) {
            throw n.error("token and token_file exclude each other (expected one of them)");
        }
        Optional<String> token = n.optionalString("token").or(() -> n.optionalString("token_file")
                .map(file -> readToken(n.child("token_file"), Path.of(file))));
        token.ifPresent(t -> {
            String field = n.has("token") ? "token" : "token_file";
            if (t.length() < 16 || t.chars().anyMatch(c -> c <= ' ' || c > '~')) {
                throw n.child(field).error("the token must be at least 16 printable ASCII characters without spaces"
                        + " (was " + t.length() + " characters)");
            }
        });
        if (token.isEmpty() && !isLoopback(n.child("address"), address)) {
            throw n.child("address").error("'" + address + "' is not a loopback address: set admin.token or"
                    + " admin.token_file so that mutating endpoints require a bearer token (expected a token, or"
                    + " address 127.0.0.1)");
        }
        return new AdminConfig(address, n.integer("port", 9901, 0, 65535), token);
    }

    private static boolean isLoopback(ConfigNode field, String address) {
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw field.error("'" + address + "' cannot be resolved (expected an IP address or a resolvable name)");
        }
    }

    private static String readToken(ConfigNode field, Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw field.error(file + ": cannot be read (expected a file holding the token): " + e);
        }
    }

    /** {@code demo_upstream}: the built-in upstream answering on its own port. */
    static Optional<DemoUpstreamConfig> demoUpstream(ConfigNode n) {
        n.allowOnly(Set.of("address", "port"));
        return Optional.of(new DemoUpstreamConfig(n.string("address", "127.0.0.1"), n.integer("port", 8081, 0, 65535)));
    }

    static UpgradeConfig upgrade(ConfigNode n) {
        n.allowOnly(Set.of("socket_path"));
        String path = n.string("socket_path");
        if (path.isBlank() || path.getBytes(StandardCharsets.UTF_8).length > MAX_UNIX_SOCKET_PATH_BYTES) {
            throw n.child("socket_path").error("'" + path + "' (expected: a non-blank path of at most "
                    + MAX_UNIX_SOCKET_PATH_BYTES + " bytes, the limit of a Unix domain socket address)");
        }
        return new UpgradeConfig(Path.of(path));
    }

    /** {@code config_watch}: on once the block is there, unless {@code enabled: false}. */
    static ConfigWatchConfig configWatch(ConfigNode n) {
        n.allowOnly(Set.of("enabled", "debounce"));
        return new ConfigWatchConfig(n.bool("enabled", true),
                n.positiveDuration("debounce", ConfigWatchConfig.DEFAULT_DEBOUNCE));
    }

    static DrainConfig drain(ConfigNode n) {
        n.allowOnly(Set.of("timeout"));
        return new DrainConfig(n.positiveDuration("timeout", DrainConfig.DEFAULTS.timeout()));
    }

    static OverloadConfig overload(ConfigNode n) {
        n.allowOnly(Set.of("max_connections", "heap_threshold", "fd_threshold", "check_interval"));
        OverloadConfig d = OverloadConfig.DEFAULTS;
        return new OverloadConfig(
                n.integer("max_connections", d.maxConnections(), 0, Integer.MAX_VALUE),
                share(n, "heap_threshold", d.heapThreshold()),
                share(n, "fd_threshold", d.fdThreshold()),
                n.positiveDuration("check_interval", d.checkInterval()));
    }

    /** A share at {@code key}: a number greater than 0 and at most 1. */
    private static double share(ConfigNode n, String key, double defaultValue) {
        return n.optional(key).map(v -> {
            double share = v.asDouble();
            if (!(share > 0 && share <= 1)) {
                throw v.error(share + " (expected: > 0 and <= 1)");
            }
            return share;
        }).orElse(defaultValue);
    }

}
