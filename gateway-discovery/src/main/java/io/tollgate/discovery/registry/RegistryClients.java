package io.tollgate.discovery.registry;

import io.tollgate.core.config.RegistryConfig;
import io.tollgate.discovery.RegistryClient;
import io.tollgate.discovery.nacos.NacosRegistry;
import io.tollgate.discovery.zookeeper.ZookeeperRegistry;
import java.util.concurrent.Executor;

/** Makes the client of a registry's type. */
public final class RegistryClients {

    private RegistryClients() {
    }

    /**
     * Starts the client of {@code config}'s registry, connecting in the background; its
     * subscribers hear of providers on {@code control}.
     */
    public static RegistryClient start(RegistryConfig config, Executor control) {
        if (RegistryConfig.ZOOKEEPER.equals(config.type())) {
            return ZookeeperRegistry.start(config, control);
        }
        if (RegistryConfig.NACOS.equals(config.type())) {
            return NacosRegistry.start(config, control);
        }
        throw new IllegalArgumentException("registry type " + config.type() + " (expected " + RegistryConfig.ZOOKEEPER
                + " or " + RegistryConfig.NACOS + ")");
    }
}
