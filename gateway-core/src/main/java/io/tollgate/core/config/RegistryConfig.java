package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A service registry the gateway reads providers from (top-level {@code registries:}), named so
 * that clusters and routes refer to it: a ZooKeeper ensemble or a Nacos cluster.
 *
 * @param name unique among the registries
 * @param type the registry's kind: {@value #ZOOKEEPER} or {@value #NACOS}
 * @param ensemble the servers, {@code host:port[,host:port...]}, as ZooKeeper's and Nacos's clients take them
 * @param root a chroot under which every path is read ({@code /} for none; ZooKeeper only)
 * @param sessionTimeout the ZooKeeper session's timeout: how long the servers keep the session
 *     (and so the gateway's watches) while the gateway is disconnected (unused by Nacos)
 * @param connectionTimeout how long one connection attempt may take
 * @param auth credentials: ZooKeeper's {@code digest} scheme, or a Nacos user, when the registry is protected
 * @param nacos a Nacos registry's namespace, group and request timeout; empty for ZooKeeper
 */
public record RegistryConfig(String name, String type, String ensemble, String root, Duration sessionTimeout,
        Duration connectionTimeout, Optional<DigestAuth> auth, Optional<NacosSettings> nacos) {

    /** A ZooKeeper ensemble, read through Apache Curator. */
    public static final String ZOOKEEPER = "zookeeper";
    /** A Nacos cluster, read through nacos-client. */
    public static final String NACOS = "nacos";

    /** A ZooKeeper registry. */
    public RegistryConfig(String name, String type, String ensemble, String root, Duration sessionTimeout,
            Duration connectionTimeout, Optional<DigestAuth> auth) {
        this(name, type, ensemble, root, sessionTimeout, connectionTimeout, auth, Optional.empty());
    }

    public RegistryConfig {
        requireNonNull(name, "name");
        requireNonNull(type, "type");
        requireNonNull(ensemble, "ensemble");
        requireNonNull(root, "root");
        requireNonNull(sessionTimeout, "sessionTimeout");
        requireNonNull(connectionTimeout, "connectionTimeout");
        requireNonNull(auth, "auth");
        requireNonNull(nacos, "nacos");
    }

    /**
     * ZooKeeper digest credentials, or a Nacos user's name and password. Not a record: the
     * password never shows, neither in {@link #toString()} (logs) nor in {@code /config_dump},
     * which writes records field by field.
     */
    public static final class DigestAuth {

        private final String username;
        private final String password;

        public DigestAuth(String username, String password) {
            this.username = requireNonNull(username, "username");
            this.password = requireNonNull(password, "password");
        }

        public String username() {
            return username;
        }

        public String password() {
            return password;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof DigestAuth auth && auth.username.equals(username) && auth.password.equals(password);
        }

        @Override
        public int hashCode() {
            return Objects.hash(username, password);
        }

        @Override
        public String toString() {
            return "digest " + username + ":<hidden>";
        }
    }
}
