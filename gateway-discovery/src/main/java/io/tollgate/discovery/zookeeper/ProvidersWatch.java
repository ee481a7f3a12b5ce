package io.tollgate.discovery.zookeeper;

import com.fasterxml.jackson.databind.JsonNode;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.discovery.ProviderLayout;
import io.tollgate.discovery.MethodSignature;
import io.tollgate.discovery.ProviderListener;
import io.tollgate.discovery.Subscription;
import io.tollgate.discovery.WarmupRamp;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The providers of one service under one ZooKeeper node, kept by a Curator {@link CuratorCache}
 * (which re-reads the node and re-arms its watches after a reconnection, and keeps what it knew
 * while disconnected). Its events run on the control executor: each child parsed once when it
 * changes, and one list published per burst of events (those queued before the publication).
 */
final class ProvidersWatch implements Subscription {

    private static final Logger log = LoggerFactory.getLogger(ProvidersWatch.class);

    private final ProviderQueryConfig query;
    private final ProviderLayout layout;
    private final String path;
    private final CuratorCache cache;
    private final Executor control;
    private final ProviderListener listener;
    private final ZookeeperRegistry.Counters counters;
    /** Each provider node's host, by node name, in the order first seen; control thread only. */
    private final Map<String, EndpointConfig> byNode = new LinkedHashMap<>();
    /** The definition paths asked for already; control thread only. */
    private final Set<String> definitionsAsked = new HashSet<>();
    private final CuratorFramework client;
    private volatile List<MethodSignature> methods = List.of();
    /** The service definition the methods were read from; written before them. */
    private volatile JsonNode definition;
    private boolean synced;
    private final Coalesced publication;
    private final EventStamps stamps = new EventStamps();
    /** Set by {@link #ramping}: the watch makes its hosts again itself while one warms up; else its user does. */
    private WarmupRamp ramp;
    private volatile boolean closed;

    ProvidersWatch(CuratorFramework client, ProviderQueryConfig query, ProviderLayout layout, Executor control,
            ProviderListener listener, ZookeeperRegistry.Counters counters) {
        this.query = query;
        this.layout = layout;
        this.path = layout.providersPath(query);
        this.control = control;
        this.listener = listener;
        this.counters = counters;
        this.client = client;
        this.cache = CuratorCache.build(client, path);
        this.publication = new Coalesced(control, this::publish);
    }

    /** Makes this watch make its hosts again while a provider warms up, each step after a wait on {@code timer}. */
    ProvidersWatch ramping(WarmupRamp.Timer timer) {
        ramp = new WarmupRamp(layout, timer, control, () -> {
            if (!closed) {
                refresh();
            }
        });
        return this;
    }

    /** Starts reading; returns at once. */
    ProvidersWatch start() {
        cache.listenable().addListener(CuratorCacheListener.builder()
                .forAll((type, before, after) -> changed(type == CuratorCacheListener.Type.NODE_DELETED ? before : after,
                        type == CuratorCacheListener.Type.NODE_DELETED))
                .forInitialized(this::initialized)
                .build(), stamps.stamping(control));
        cache.start();
        return this;
    }

    private void changed(ChildData node, boolean deleted) {
        if (closed) {
            return;
        }
        counters.event();
        String name = childName(node.getPath());
        if (name != null) {
            update(name, node, deleted);
        }
    }

    /**
     * Parses every provider node again (a provider's weight changes with time while it warms up)
     * and publishes; control thread only.
     */
    void refresh() {
        for (String name : List.copyOf(byNode.keySet())) {
            cache.get(path + "/" + name).ifPresent(node -> update(name, node, false));
        }
    }

    private void update(String name, ChildData node, boolean deleted) {
        EndpointConfig provider = null;
        if (!deleted) {
            try {
                provider = layout.provider(query, name, node.getData());
            } catch (IllegalArgumentException e) {
                counters.error();
                log.warn("registration {}/{} ignored: {}", path, name, e.getMessage());
            }
        }
        if (provider == null) {
            byNode.remove(name);
        } else if (!provider.equals(byNode.get(name))) {
            byNode.put(name, provider);
        }
        publication.request();
    }

    private void initialized() {
        synced = true;
        publication.request();
    }

    private void publish() {
        if (closed) {
            return;
        }
        List<EndpointConfig> providers = new ArrayList<>(byNode.size());
        Set<String> addresses = new HashSet<>();
        for (EndpointConfig provider : byNode.values()) {
            // one host per address: a provider re-registering may show twice for a moment
            if (addresses.add(provider.address() + ":" + provider.port())) {
                providers.add(provider);
                readDefinition(layout.definitionPath(query, provider));
            }
        }
        listener.providers(List.copyOf(providers), synced, stamps.take());
        if (ramp != null) {
            ramp.published();
        }
    }

    /**
     * Reads, in the background, the service definitions of {@code providers} found elsewhere (at
     * application level), as for the providers of this node; control thread only.
     */
    void readDefinitions(List<EndpointConfig> providers) {
        providers.forEach(provider -> readDefinition(layout.definitionPath(query, provider)));
    }

    /**
     * Reads a service definition in the background, once per path (again after a failed read);
     * the first one read gives the service's methods.
     */
    private void readDefinition(String definitionPath) {
        if (definitionPath == null || !methods.isEmpty() || !definitionsAsked.add(definitionPath)) {
            return;
        }
        try {
            client.getData().inBackground((c, event) -> {
                if (event.getResultCode() == 0 && methods.isEmpty()) {
                    JsonNode read = ServiceDefinitions.read(event.getData(), definitionPath);
                    definition = read;
                    methods = ServiceDefinitions.methods(read);
                } else if (event.getResultCode() != 0) {
                    // not written yet (Dubbo writes it after registering): asked again at the next publication
                    control.execute(() -> definitionsAsked.remove(definitionPath));
                }
            }).forPath(definitionPath);
        } catch (Exception e) { // Curator declares Exception; a background read fails in its callback
            log.debug("definition {} not read: {}", definitionPath, e.toString());
        }
    }

    @Override
    public List<MethodSignature> methods() {
        return methods;
    }

    @Override
    public JsonNode definition() {
        return definition;
    }

    /** The name of {@code nodePath} when it is a child of the providers node, else null. */
    private String childName(String nodePath) {
        if (nodePath.length() <= path.length() + 1 || !nodePath.startsWith(path)
                || nodePath.charAt(path.length()) != '/') {
            return null;
        }
        String name = nodePath.substring(path.length() + 1);
        return name.indexOf('/') >= 0 ? null : name;
    }

    @Override
    public void close() {
        closed = true;
        counters.unsubscribed();
        cache.close();
    }
}
