package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * What a Nacos registry ({@code type: nacos}) needs beyond its servers and credentials: Nacos
 * scopes every service by namespace and group, and its client bounds each request to the servers.
 *
 * @param namespace the namespace's id; empty for Nacos's {@code public} namespace (where Dubbo
 *     registers by default; SOFARPC registers in {@code sofa-rpc} unless told otherwise)
 * @param group the group the services are read in, {@value #DEFAULT_GROUP} by default (Dubbo's
 *     registry {@code group} parameter; SOFARPC always registers in the default group)
 * @param requestTimeout how long one request to the servers (a subscription, a service listing)
 *     may take
 */
public record NacosSettings(String namespace, String group, Duration requestTimeout) {

    /** Nacos's default group, where Dubbo and SOFARPC register unless told otherwise. */
    public static final String DEFAULT_GROUP = "DEFAULT_GROUP";
    /** nacos-client's own default for one request. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(3);

    public NacosSettings {
        requireNonNull(namespace, "namespace");
        requireNonNull(group, "group");
        requireNonNull(requestTimeout, "requestTimeout");
    }
}
