package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;

/**
 * A service registry the gateway reads providers from (top-level {@code registries:}), named so
 * that clusters and routes refer to it. Only ZooKeeper is read today.
 *
 * @param name unique among the registries
 * @param type the registry's kind: {@value #ZOOKEEPER}
 * @param ensemble the servers, {@code host:port[,host:port...]}, as ZooKeeper clients take them
 * @param root a chroot under which every path is read ({@code /} for none)
 * @param sessionTimeout the ZooKeeper session's timeout: how long the servers keep the session
 *     (and so the gateway's watches) while the gateway is disconnected
 * @param connectionTimeout how long one connection attempt may take
 * @param auth digest credentials (ZooKeeper's {@code digest} scheme), when the nodes are protected
 */
public record RegistryConfig(String name, String type, String ensemble, String root, Duration sessionTimeout,
        Duration connectionTimeout, Optional<DigestAuth> auth) {

    /** A ZooKeeper ensemble, read through Apache Curator. */
    public static final String ZOOKEEPER = "zookeeper";

    public RegistryConfig {
        requireNonNull(name, "name");
        requireNonNull(type, "type");
        requireNonNull(ensemble, "ensemble");
        requireNonNull(root, "root");
        requireNonNull(sessionTimeout, "sessionTimeout");
        requireNonNull(connectionTimeout, "connectionTimeout");
        requireNonNull(auth, "auth");
    }

    /**
     * ZooKeeper digest credentials; the password never shows in {@link #toString()} (logs,
     * {@code /config_dump}).
     */
    public record DigestAuth(String username, String password) {

        public DigestAuth {
            requireNonNull(username, "username");
            requireNonNull(password, "password");
        }

        @Override
        public String toString() {
            return "DigestAuth[username=" + username + ", password=<hidden>]";
        }
    }
}
