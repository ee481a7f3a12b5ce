package io.tollgate.discovery.nacos;

import com.alibaba.nacos.api.exception.NacosException;
import com.alibaba.nacos.api.naming.NamingService;
import com.alibaba.nacos.api.naming.listener.AbstractEventListener;
import com.alibaba.nacos.api.naming.listener.Event;
import com.alibaba.nacos.api.naming.listener.NamingEvent;
import com.alibaba.nacos.api.naming.pojo.Instance;
import com.alibaba.nacos.api.naming.pojo.ListView;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.discovery.ProviderLayout;
import io.tollgate.discovery.ProviderListener;
import io.tollgate.discovery.ProviderUrl;
import io.tollgate.discovery.Subscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;

/**
 * The providers of one service in a Nacos registry. On the registry's worker thread it subscribes
 * to the service's Nacos names ({@link NacosServiceNames}; a query taking any group, version or
 * unique id lists the group's services again every {@link #LIST_INTERVAL}), and on each change
 * Nacos notifies reads the name's instances from the client's cache, which is never older than
 * the notification; the hosts go to the control executor in the order read. A failed request is
 * tried again with a growing wait. On the control executor each name's hosts are kept, and one
 * list, each address once, is published when they change.
 */
final class NacosWatch implements Subscription {

    /** How often a query that takes any group, version or unique id lists the services again. */
    static final Duration LIST_INTERVAL = Duration.ofSeconds(30);
    private static final int PAGE_SIZE = 500;
    private static final String VERSION = "version";
    /** The one version SOFARPC gives every service. */
    private static final String SOFA_VERSION = "1.0";

    private final NacosRegistry registry;
    private final ProviderQueryConfig query;
    private final ProviderLayout layout;
    private final Executor control;
    private final ProviderListener listener;
    /** The names subscribed to, with the listener given to Nacos for each; worker thread only. */
    private final Map<String, NameListener> subscribed = new HashMap<>();
    /** Failed tries in a row; worker thread only. */
    private int failures;
    /** Each name's hosts, by address, in the order first seen; control thread only. */
    private final Map<String, Map<String, EndpointConfig>> byName = new LinkedHashMap<>();
    private boolean synced;
    private volatile boolean closed;

    NacosWatch(NacosRegistry registry, ProviderQueryConfig query, ProviderLayout layout, Executor control,
            ProviderListener listener) {
        this.registry = registry;
        this.query = query;
        this.layout = layout;
        this.control = control;
        this.listener = listener;
    }

    /** Starts watching in the background; returns at once. */
    NacosWatch start() {
        registry.onWorker(this::watch);
        return this;
    }

    /** Subscribes to the query's names and reads each once; worker thread. */
    private void watch() {
        if (closed) {
            return;
        }
        boolean listed = NacosServiceNames.listed(query);
        try {
            NamingService naming = registry.naming();
            Set<String> names = listed ? list(naming) : NacosServiceNames.of(query);
            for (String name : names) {
                if (!subscribed.containsKey(name)) {
                    NameListener nameListener = new NameListener(name);
                    naming.subscribe(name, registry.group(), nameListener);
                    subscribed.put(name, nameListener);
                }
            }
            for (String name : new ArrayList<>(subscribed.keySet())) {
                if (!names.contains(name)) {
                    naming.unsubscribe(name, registry.group(), subscribed.remove(name));
                }
            }
            for (String name : names) {
                read(naming, name);
            }
            Set<String> watched = Set.copyOf(names);
            control.execute(() -> watched(watched));
            failures = 0;
            if (listed) {
                registry.later(this::watch, LIST_INTERVAL);
            }
        } catch (NacosException | RuntimeException e) {
            failures++;
            registry.failed("watching " + query.interfaceName(), e);
            registry.later(this::watch, NacosRegistry.retryAfter(failures));
        }
    }

    /** The group's service names that hold the query's providers, every page of them. */
    private Set<String> list(NamingService naming) throws NacosException {
        Set<String> names = new LinkedHashSet<>();
        for (int page = 1; ; page++) {
            ListView<String> view = naming.getServicesOfServer(page, PAGE_SIZE, registry.group());
            List<String> data = view.getData() == null ? List.of() : view.getData();
            data.stream().filter(name -> NacosServiceNames.matches(query, name)).forEach(names::add);
            if (data.size() < PAGE_SIZE || (long) page * PAGE_SIZE >= view.getCount()) {
                return names;
            }
        }
    }

    /** Reads the instances of {@code name} from the client's cache (kept by the subscription) and hands them on. */
    private void read(NamingService naming, String name) throws NacosException {
        List<Instance> instances = naming.getAllInstances(name, registry.group(), List.of(), true);
        List<EndpointConfig> providers = new ArrayList<>(instances.size());
        for (Instance instance : instances) {
            try {
                EndpointConfig provider = provider(query, layout, instance);
                if (provider != null) {
                    providers.add(provider);
                }
            } catch (IllegalArgumentException e) {
                registry.failed("instance " + instance.getIp() + ":" + instance.getPort() + " of " + name
                        + " ignored", e);
            }
        }
        control.execute(() -> read(name, providers));
    }

    /**
     * The host of a Nacos instance, or null when Nacos marks it disabled or unhealthy or it is not
     * one of {@code query}'s: both frameworks write their provider URL's parameters as the
     * instance's metadata (Dubbo adds the URL's {@code protocol} and {@code path}; SOFARPC leaves
     * out the version).
     *
     * @throws IllegalArgumentException when the instance's port is out of range
     */
    static EndpointConfig provider(ProviderQueryConfig query, ProviderLayout layout, Instance instance) {
        if (!instance.isEnabled() || !instance.isHealthy()) {
            return null;
        }
        if (instance.getPort() < 1 || instance.getPort() > 65535) {
            throw new IllegalArgumentException("port " + instance.getPort() + " out of range");
        }
        Map<String, String> metadata = instance.getMetadata() == null ? Map.of() : instance.getMetadata();
        if (query.kind() == ProviderQueryConfig.Kind.SOFA && !metadata.containsKey(VERSION)) {
            // SOFARPC leaves the version out of its Nacos metadata (its ZooKeeper URL says 1.0)
            metadata = new HashMap<>(metadata);
            metadata.put(VERSION, SOFA_VERSION);
        }
        String protocol = metadata.getOrDefault("protocol", query.protocols().get(0));
        ProviderUrl url = new ProviderUrl(protocol, instance.getIp(), instance.getPort(),
                metadata.getOrDefault("path", ""), metadata);
        return layout.provider(query, url);
    }

    /** {@code name}'s hosts now; control thread. Unchanged hosts stay the objects they were, where they were. */
    private void read(String name, List<EndpointConfig> providers) {
        if (closed) {
            return;
        }
        Map<String, EndpointConfig> fresh = new LinkedHashMap<>();
        providers.forEach(provider -> fresh.putIfAbsent(provider.address() + ":" + provider.port(), provider));
        Map<String, EndpointConfig> before = byName.getOrDefault(name, Map.of());
        Map<String, EndpointConfig> next = new LinkedHashMap<>();
        before.forEach((address, old) -> {
            EndpointConfig now = fresh.get(address);
            if (now != null) {
                next.put(address, now.equals(old) ? old : now);
            }
        });
        fresh.forEach(next::putIfAbsent);
        if (!next.equals(before) || !byName.containsKey(name)) {
            byName.put(name, next);
            if (synced) {
                publish();
            }
        }
    }

    /** Every name of {@code names} was read once; control thread. */
    private void watched(Set<String> names) {
        if (closed) {
            return;
        }
        boolean dropped = byName.keySet().retainAll(names);
        if (!synced || dropped) {
            synced = true;
            publish();
        }
    }

    private void publish() {
        List<EndpointConfig> providers = new ArrayList<>();
        Set<String> addresses = new HashSet<>();
        for (Map<String, EndpointConfig> hosts : byName.values()) {
            hosts.forEach((address, provider) -> {
                // one host per address: Dubbo's current and legacy names may both hold a provider
                if (addresses.add(address)) {
                    providers.add(provider);
                }
            });
        }
        listener.providers(List.copyOf(providers), synced);
    }

    @Override
    public void close() {
        closed = true;
        registry.unsubscribed();
        registry.onWorker(() -> {
            for (Map.Entry<String, NameListener> entry : subscribed.entrySet()) {
                try {
                    registry.naming().unsubscribe(entry.getKey(), registry.group(), entry.getValue());
                } catch (NacosException e) {
                    registry.failed("unsubscribing from " + entry.getKey(), e);
                }
            }
            subscribed.clear();
        });
    }

    /** Hears Nacos's changes to one name, on the registry's worker thread. */
    private final class NameListener extends AbstractEventListener {

        private final String name;

        NameListener(String name) {
            this.name = name;
        }

        @Override
        public Executor getExecutor() {
            return registry.worker();
        }

        @Override
        public void onEvent(Event event) {
            if (!(event instanceof NamingEvent) || closed || subscribed.get(name) != this) {
                return;
            }
            registry.event();
            try {
                read(registry.naming(), name);
            } catch (NacosException | RuntimeException e) {
                registry.failed("reading " + name, e);
            }
        }
    }
}
