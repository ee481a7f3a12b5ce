package io.tollgate.discovery;

import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.ProviderQueryConfig;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Where one framework registers the providers of a service, and how one registration becomes a
 * host: Dubbo's and SOFARPC's layouts differ in the root, the node's data and the URL's fields.
 */
public interface ProviderLayout {

    /** The node whose children are the providers of {@code query}'s service, from the registry's root. */
    String providersPath(ProviderQueryConfig query);

    /**
     * The host of the provider registered as child {@code nodeName} (URL-encoded) with
     * {@code data}, or null when it is not one of {@code query}'s (another protocol, group,
     * version), is disabled or offline.
     *
     * @throws IllegalArgumentException when the node is no provider URL
     */
    EndpointConfig provider(ProviderQueryConfig query, String nodeName, byte[] data);

    /**
     * The host of the provider registered with {@code url} (read from a node's name, or made of a
     * Nacos instance's address and metadata), or null when it is not one of {@code query}'s or
     * takes no traffic.
     */
    EndpointConfig provider(ProviderQueryConfig query, ProviderUrl url);

    /**
     * Where {@code provider} published the definition (methods) of {@code query}'s service, or
     * null when this framework publishes none.
     */
    default String definitionPath(ProviderQueryConfig query, EndpointConfig provider) {
        return null;
    }

    /**
     * How long until a host made since {@link #forgetRamps} is to have its weight computed again
     * (its warmup goes on), or -1 when none is warming up; a framework without warmup: always -1.
     */
    default long nextRampMillis() {
        return -1;
    }

    /** Forgets the warmups noted so far, before the hosts are all made again. */
    default void forgetRamps() {
    }

    /**
     * A weight from a registration as a host's: at most {@link EndpointConfig#MAX_WEIGHT}; 0 (or
     * less) when the provider takes no traffic.
     */
    static int weight(int registered) {
        return Math.min(registered, EndpointConfig.MAX_WEIGHT);
    }

    /**
     * A provider URL's parameters as host labels (what subset selectors match), less those that
     * differ per process or list the methods: they would make one subset per host.
     */
    static Map<String, String> labels(ProviderUrl url, Set<String> left) {
        Map<String, String> labels = new HashMap<>();
        url.parameters().forEach((key, value) -> {
            if (!left.contains(key) && !value.isEmpty()) {
                labels.put(key, value);
            }
        });
        return labels;
    }
}
