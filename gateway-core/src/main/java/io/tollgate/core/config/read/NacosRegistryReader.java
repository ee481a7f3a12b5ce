package io.tollgate.core.config.read;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.NacosSettings;
import io.tollgate.core.config.RegistryConfig;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * Reads one {@code registries:} entry of {@code type: nacos}, for {@link DiscoveryConfigLoader}:
 * the servers, the namespace and group the services are read in, a Nacos user, and the timeouts
 * of nacos-client's connection and requests.
 */
final class NacosRegistryReader {

    /** nacos-client's own default for one connection check to a server. */
    static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(3);

    private NacosRegistryReader() {
    }

    static RegistryConfig registry(ConfigNode n) {
        n.allowOnly(Set.of("name", "type", "servers", "namespace", "group", "auth", "connection_timeout",
                "request_timeout"));
        String group = n.string("group", NacosSettings.DEFAULT_GROUP);
        if (group.isBlank()) {
            throw n.child("group").error("must not be empty (Nacos's default is " + NacosSettings.DEFAULT_GROUP + ")");
        }
        NacosSettings settings = new NacosSettings(n.string("namespace", ""), group,
                n.positiveDuration("request_timeout", NacosSettings.DEFAULT_REQUEST_TIMEOUT));
        return new RegistryConfig(n.string("name"), RegistryConfig.NACOS, n.string("servers"), "/",
                DiscoveryConfigLoader.DEFAULT_SESSION_TIMEOUT,
                n.positiveDuration("connection_timeout", DEFAULT_CONNECTION_TIMEOUT),
                n.optional("auth").map(a -> {
                    a.allowOnly(Set.of("username", "password"));
                    return new RegistryConfig.DigestAuth(a.string("username"), a.string("password"));
                }), Optional.of(settings));
    }
}
