package io.tollgate.discovery.zookeeper;

import com.fasterxml.jackson.databind.JsonNode;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.discovery.MethodSignature;
import io.tollgate.discovery.ProviderListener;
import io.tollgate.discovery.Subscription;
import io.tollgate.discovery.WarmupRamp;
import io.tollgate.discovery.dubbo.DubboLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongConsumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;

/**
 * The providers of one Dubbo service found both ways Dubbo 3 registers them: at interface level
 * (a {@link ProvidersWatch} of {@code /dubbo/{interface}/providers}) and at application level (the
 * applications {@code /dubbo/mapping/{interface}} names, each an {@link ApplicationWatch}). A
 * provider registered both ways ({@code register-mode=all}) has one address and is one host, the
 * interface-level one. Confined to the control thread, where every source's events arrive; one
 * list is published per burst of changes, unchanged hosts as the very objects given last time.
 * While a host warms up (Dubbo's {@code timestamp} and {@code warmup}) the hosts are made again
 * at each step of the warmup, so that its weight ramps up as Dubbo's own consumers ramp it.
 */
final class DubboSubscription implements Subscription {

    private final ProviderQueryConfig query;
    private final DubboLayout layout;
    private final Executor control;
    private final WarmupRamp ramp;
    private final ProviderListener listener;
    private final ApplicationWatches applications;
    private final ProvidersWatch interfaceLevel;
    private final String mappingPath;
    private final CuratorCache mapping;
    private final Map<String, ApplicationWatch> watched = new LinkedHashMap<>();
    private final LongConsumer applicationChanged;
    private final EventStamps stamps = new EventStamps();
    private List<EndpointConfig> interfaceProviders = List.of();
    private boolean interfaceSynced;
    private boolean mappingSynced;
    /** What was published last, by address. */
    private Map<String, EndpointConfig> published = Map.of();
    private final Coalesced publication;
    private volatile boolean closed;

    DubboSubscription(CuratorFramework client, ProviderQueryConfig query, DubboLayout layout, Executor control,
            ScheduledExecutorService timers, ProviderListener listener, ZookeeperRegistry.Counters counters,
            ApplicationWatches applications) {
        this.query = query;
        this.layout = layout;
        this.control = control;
        this.ramp = new WarmupRamp(layout, ZookeeperRegistry.timer(timers), control, this::ramp);
        this.listener = listener;
        this.applications = applications;
        this.interfaceLevel = new ProvidersWatch(client, query, layout, control, this::interfaceChanged, counters);
        // the node's own cache (no single-node option): it must hear of the node made after the watch started
        this.mappingPath = "/dubbo/mapping/" + query.interfaceName();
        this.mapping = CuratorCache.build(client, mappingPath);
        this.publication = new Coalesced(control, this::publish);
        this.applicationChanged = changedAt -> {
            stamps.note(changedAt);
            publication.request();
        };
    }

    /** Starts reading; returns at once. */
    DubboSubscription start() {
        mapping.listenable().addListener(CuratorCacheListener.builder()
                .forAll((type, before, after) -> {
                    boolean deleted = type == CuratorCacheListener.Type.NODE_DELETED;
                    if ((deleted ? before : after).getPath().equals(mappingPath)) {
                        mappingChanged(deleted ? null : after.getData());
                    }
                })
                .forInitialized(() -> {
                    mappingSynced = true;
                    publication.request();
                })
                .build(), stamps.stamping(control));
        interfaceLevel.start();
        mapping.start();
        return this;
    }

    private void interfaceChanged(List<EndpointConfig> providers, boolean synced, long changedAt) {
        stamps.note(changedAt);
        interfaceProviders = providers;
        interfaceSynced = synced;
        publication.request();
    }

    /**
     * The applications a mapping node's data names: Dubbo writes them comma-separated. A name that
     * cannot be one node's name (a {@code /}, {@code .} or {@code ..}) is passed over.
     */
    private static Set<String> applicationsOf(byte[] data) {
        Set<String> names = new LinkedHashSet<>();
        if (data != null) {
            for (String name : new String(data, StandardCharsets.UTF_8).split(",")) {
                String trimmed = name.trim();
                if (!trimmed.isEmpty() && trimmed.indexOf('/') < 0 && !trimmed.equals(".") && !trimmed.equals("..")) {
                    names.add(trimmed);
                }
            }
        }
        return names;
    }

    private void mappingChanged(byte[] data) {
        if (closed) {
            return;
        }
        Set<String> names = applicationsOf(data);
        for (Iterator<Map.Entry<String, ApplicationWatch>> it = watched.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, ApplicationWatch> entry = it.next();
            if (!names.contains(entry.getKey())) {
                release(entry.getValue());
                it.remove();
            }
        }
        for (String name : names) {
            if (!watched.containsKey(name)) {
                ApplicationWatch watch = applications.acquire(name);
                watch.addListener(applicationChanged);
                watched.put(name, watch);
            }
        }
        publication.request();
    }

    private void release(ApplicationWatch watch) {
        watch.removeListener(applicationChanged);
        applications.release(watch);
    }

    private void publish() {
        if (closed) {
            return;
        }
        Map<String, EndpointConfig> next = new LinkedHashMap<>();
        for (EndpointConfig provider : interfaceProviders) {
            next.putIfAbsent(address(provider), provider);
        }
        boolean synced = interfaceSynced && mappingSynced;
        List<EndpointConfig> applicationLevel = new ArrayList<>();
        for (ApplicationWatch watch : watched.values()) {
            synced &= watch.synced();
            watch.resolved().forEach((instance, metadata) -> {
                for (EndpointConfig provider : layout.providers(query, instance, metadata)) {
                    String address = address(provider);
                    if (!next.containsKey(address)) {
                        EndpointConfig before = published.get(address);
                        EndpointConfig kept = provider.equals(before) ? before : provider;
                        next.put(address, kept);
                        applicationLevel.add(kept);
                    }
                }
            });
        }
        published = next;
        interfaceLevel.readDefinitions(applicationLevel);
        listener.providers(List.copyOf(next.values()), synced, stamps.take());
        ramp.published();
    }

    /** A step of a warmup: every host made again, so that its weight grows. */
    private void ramp() {
        if (closed) {
            return;
        }
        interfaceLevel.refresh();
        publication.request();
    }

    private static String address(EndpointConfig provider) {
        return provider.address() + ":" + provider.port();
    }

    @Override
    public List<MethodSignature> methods() {
        return interfaceLevel.methods();
    }

    @Override
    public JsonNode definition() {
        return interfaceLevel.definition();
    }

    @Override
    public void close() {
        closed = true;
        interfaceLevel.close();
        mapping.close();
        try {
            control.execute(() -> {
                watched.values().forEach(this::release);
                watched.clear();
            });
        } catch (RejectedExecutionException e) {
            // the control thread is gone: the registry is closing, and its client's close ends every watch
        }
    }
}
