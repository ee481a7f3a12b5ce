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
import io.tollgate.discovery.WarmupRamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
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
 * the notification; their provider URLs go to the control executor in the order read. A failed
 * request is tried again with a growing wait. On the control executor each name's URLs are kept,
 * and the hosts the layout makes of them, each address once, are published when they change, and
 * again at each step of a provider's warmup while one warms up.
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
    /** Each name's provider URLs, in the order read; control thread only. */
    private final Map<String, List<ProviderUrl>> byName = new LinkedHashMap<>();
    /** The hosts published last, by address; control thread only. */
    private Map<String, EndpointConfig> published = Map.of();
    private boolean synced;
    /** Whether the listener was told of any hosts yet; control thread only. */
    private boolean announced;
    private final WarmupRamp ramp;
    private volatile boolean closed;

    NacosWatch(NacosRegistry registry, ProviderQueryConfig query, ProviderLayout layout, Executor control,
            ProviderListener listener) {
        this.registry = registry;
        this.query = query;
        this.layout = layout;
        this.control = control;
        this.listener = listener;
        this.ramp = new WarmupRamp(layout, (task, delayMillis) -> registry.later(task, Duration.ofMillis(delayMillis)),
                control, () -> {
                    if (!closed) {
                        publish();
                    }
                });
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
        List<ProviderUrl> urls = new ArrayList<>(instances.size());
        for (Instance instance : instances) {
            try {
                ProviderUrl url = url(query, instance);
                if (url != null) {
                    urls.add(url);
                }
            } catch (IllegalArgumentException e) {
                registry.failed("instance " + instance.getIp() + ":" + instance.getPort() + " of " + name
                        + " ignored", e);
            }
        }
        control.execute(() -> read(name, List.copyOf(urls)));
    }

    /**
     * The provider URL of a Nacos instance, or null when Nacos marks it disabled or unhealthy:
     * both frameworks write their provider URL's parameters as the instance's metadata (Dubbo adds
     * the URL's {@code protocol} and {@code path}; SOFARPC leaves out the version).
     *
     * @throws IllegalArgumentException when the instance's port is out of range
     */
    static ProviderUrl url(ProviderQueryConfig query, Instance instance) {
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
        return new ProviderUrl(protocol, instance.getIp(), instance.getPort(), metadata.getOrDefault("path", ""),
                metadata);
    }

    /** {@code name}'s provider URLs now; control thread. */
    private void read(String name, List<ProviderUrl> urls) {
        if (closed) {
            return;
        }
        List<ProviderUrl> before = byName.put(name, urls);
        if (synced && !urls.equals(before)) {
            publish();
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

    /**
     * Makes the hosts of every name's URLs, one per address (Dubbo's current and legacy names may
     * both hold a provider; the first read wins), and publishes them when they differ from the
     * last; unchanged hosts stay the objects they were. Control thread.
     */
    private void publish() {
        // every host is made again: the warmups noted are those of this publication
        layout.forgetRamps();
        Map<String, EndpointConfig> next = new LinkedHashMap<>();
        for (List<ProviderUrl> urls : byName.values()) {
            for (ProviderUrl url : urls) {
                String address = url.host() + ":" + url.port();
                if (next.containsKey(address)) {
                    continue;
                }
                EndpointConfig provider = layout.provider(query, url);
                if (provider != null) {
                    EndpointConfig before = published.get(address);
                    next.put(address, provider.equals(before) ? before : provider);
                }
            }
        }
        if (!announced || !next.equals(published)) {
            published = next;
            announced = true;
            listener.providers(List.copyOf(next.values()), synced, 0);
        }
        ramp.published();
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
