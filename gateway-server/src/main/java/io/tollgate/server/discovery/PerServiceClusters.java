package io.tollgate.server.discovery;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.core.config.RegistryConfig;
import io.tollgate.core.config.ServiceTemplateConfig;
import io.tollgate.admin.DiscoveredService;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.discovery.RegistryClient;
import io.tollgate.discovery.Subscription;
import io.tollgate.server.rpc.ServiceClusters;
import io.tollgate.server.rpccall.PublishedTypes;
import io.tollgate.server.rpccall.RegisteredService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clusters made per service from template clusters ({@code discovery: { per_service: ... }}):
 * on a service's first call an event loop asks the control thread for it, which subscribes to the
 * service's providers and, once the registry answered, adds a cluster named
 * {@code template[service key]} with the template's settings to the configuration the gateway
 * applies; the call waits for that (at most the registry's connection timeout) and goes on. A
 * service's cluster that took no call for the template's {@code unused_timeout} is dropped.
 * Event loops read only what {@link #published} holds; the rest is confined to the control thread.
 */
final class PerServiceClusters implements ServiceClusters {

    private static final Logger log = LoggerFactory.getLogger(PerServiceClusters.class);

    private final Executor control;
    private final LongConsumer changed;
    private final LongSupplier nanoClock;
    private final Map<String, Service> services = new HashMap<>();
    private Map<String, ServiceTemplateConfig> templates = Map.of();
    private Map<String, RegistryConfig> registries = Map.of();
    private Function<String, RegistryClient> clients = name -> null;
    private volatile Map<String, Published> published = Map.of();
    private volatile List<Service> listed = List.of();
    /** The services of {@link #listed} by their clusters' names. */
    private volatile Map<String, Service> byCluster = Map.of();

    /**
     * @param changed asks for the configuration to be applied again, later, on the control thread,
     *     given when the oldest registry event it carries was received (0: none)
     */
    PerServiceClusters(Executor control, LongConsumer changed, LongSupplier nanoClock) {
        this.control = control;
        this.changed = changed;
        this.nanoClock = nanoClock;
    }

    /** What event loops read of one template: its settings and its services' served clusters by key. */
    private record Published(ServiceTemplateConfig template, Duration readyBound, Map<String, Served> served) {
    }

    /** A service's cluster as event loops find it, with the count of its calls. */
    private record Served(String cluster, LongAdder calls) {
    }

    /** One service's cluster: its subscription, providers and callers waiting for it; control thread only. */
    private static final class Service {
        private final String template;
        private final String key;
        private final RegistryClient client;
        private final ServiceTemplateConfig settings;
        private final LongAdder calls = new LongAdder();
        private final List<CompletableFuture<Void>> waiting = new ArrayList<>();
        private Subscription subscription;
        private final PublishedTypesCache types = new PublishedTypesCache();
        private List<EndpointConfig> providers = List.of();
        private boolean synced;
        private boolean applied;
        private long callsSeen;
        private long lastCallNanos;

        private Service(String template, String key, ServiceTemplateConfig settings, RegistryClient client, long now) {
            this.template = template;
            this.settings = settings;
            this.key = key;
            this.client = client;
            this.lastCallNanos = now;
        }
    }

    @Override
    public Lookup lookup(String template, RouteRequest request) {
        Published templatePublished = published.get(template);
        if (templatePublished == null) {
            return null;
        }
        String key = ServiceKeys.of(templatePublished.template().kind(), request);
        if (key == null) {
            return null;
        }
        Served served = templatePublished.served().get(key);
        if (served != null) {
            served.calls().increment();
            return new Lookup(served.cluster(), null);
        }
        CompletableFuture<Void> ready = new CompletableFuture<Void>()
                .orTimeout(templatePublished.readyBound().toNanos(), TimeUnit.NANOSECONDS);
        control.execute(() -> demand(template, key, ready));
        return new Lookup(null, ready);
    }

    private static String clusterName(String template, String key) {
        return template + "[" + key + "]";
    }

    private void demand(String template, String key, CompletableFuture<Void> ready) {
        ServiceTemplateConfig settings = templates.get(template);
        String name = clusterName(template, key);
        Service service = services.get(name);
        if (service == null && settings != null) {
            RegistryClient client = clients.apply(settings.registry());
            if (client != null) {
                service = subscribe(template, key, settings, client);
            }
        }
        if (service == null || service.applied) {
            ready.complete(null);
        } else {
            service.waiting.add(ready);
        }
    }

    private Service subscribe(String template, String key, ServiceTemplateConfig settings, RegistryClient client) {
        Service service = new Service(template, key, settings, client, nanoClock.getAsLong());
        ProviderQueryConfig query = ServiceKeys.query(settings.registry(), settings.kind(), key);
        service.subscription = client.subscribe(query, (providers, synced, changedAt) -> {
            service.providers = providers;
            service.synced |= synced;
            changed.accept(changedAt);
        });
        services.put(clusterName(template, key), service);
        log.info("cluster {} made from template {} for service {}", clusterName(template, key), template, key);
        return service;
    }

    /**
     * Follows the applied configuration: its templates, and its registries' clients
     * ({@code clients} by registry name); services of a template or client no longer there end.
     */
    void follow(GatewayConfig config, Function<String, RegistryClient> clientsByRegistry) {
        this.clients = clientsByRegistry;
        this.templates = config.discovery().templates();
        Map<String, RegistryConfig> byName = new HashMap<>();
        config.discovery().registries().forEach(r -> byName.put(r.name(), r));
        this.registries = byName;
        Iterator<Service> it = services.values().iterator();
        while (it.hasNext()) {
            Service service = it.next();
            ServiceTemplateConfig settings = templates.get(service.template);
            if (settings == null || clientsByRegistry.apply(settings.registry()) != service.client) {
                end(service);
                it.remove();
            }
        }
        publish();
    }

    /** Adds to {@code clusters} the cluster of every service whose registry answered, made from {@code config}'s template. */
    void addClusters(GatewayConfig config, List<ClusterConfig> clusters) {
        for (Map.Entry<String, Service> entry : services.entrySet()) {
            Service service = entry.getValue();
            if (service.synced) {
                config.cluster(service.template).ifPresent(template ->
                        clusters.add(template.withName(entry.getKey()).withEndpoints(service.providers)));
            }
        }
    }

    /**
     * After a configuration was applied: publishes the services' clusters it serves now and lets
     * their waiting callers go on once {@code firstVerdicts} (of new health-checked hosts) came.
     */
    void applied(CompletableFuture<Void> firstVerdicts) {
        List<CompletableFuture<Void>> released = new ArrayList<>();
        for (Service service : services.values()) {
            if (service.synced) {
                service.applied = true;
                released.addAll(service.waiting);
                service.waiting.clear();
            }
        }
        publish();
        firstVerdicts.whenComplete((done, error) -> released.forEach(ready -> ready.complete(null)));
    }

    /** Drops the services' clusters that took no call for their template's unused timeout. */
    void dropUnused() {
        long now = nanoClock.getAsLong();
        boolean dropped = false;
        Iterator<Service> it = services.values().iterator();
        while (it.hasNext()) {
            Service service = it.next();
            long calls = service.calls.sum();
            if (calls != service.callsSeen || !service.applied) {
                service.callsSeen = calls;
                service.lastCallNanos = now;
                continue;
            }
            ServiceTemplateConfig settings = templates.get(service.template);
            if (settings != null && now - service.lastCallNanos >= settings.unusedTimeout().toNanos()) {
                log.info("cluster {} dropped: no call for {}", clusterName(service.template, service.key),
                        settings.unusedTimeout());
                end(service);
                it.remove();
                dropped = true;
            }
        }
        if (dropped) {
            publish();
            changed.accept(0);
        }
    }

    private static void end(Service service) {
        service.subscription.close();
        service.waiting.forEach(ready -> ready.complete(null));
    }

    private void publish() {
        Map<String, Published> next = new HashMap<>();
        templates.forEach((template, settings) -> {
            Map<String, Served> served = new HashMap<>();
            for (Service service : services.values()) {
                if (service.template.equals(template) && service.applied) {
                    served.put(service.key, new Served(clusterName(template, service.key), service.calls));
                }
            }
            RegistryConfig registry = registries.get(settings.registry());
            Duration bound = registry == null ? Duration.ofSeconds(1) : registry.connectionTimeout();
            next.put(template, new Published(settings, bound, Map.copyOf(served)));
        });
        published = Map.copyOf(next);
        listed = services.values().stream().filter(s -> s.applied && templates.containsKey(s.template)).toList();
        Map<String, Service> served = new HashMap<>();
        listed.forEach(s -> served.put(clusterName(s.template, s.key), s));
        byCluster = Map.copyOf(served);
    }

    /** What the registry published of the service of the served cluster {@code cluster}; from any thread. */
    PublishedTypes published(String cluster) {
        Service service = byCluster.get(cluster);
        return service == null ? PublishedTypes.NONE : service.types.of(service.subscription);
    }

    /** The services {@code template} serves now, for its routes' OpenAPI documents; from any thread. */
    List<RegisteredService> registered(String template) {
        List<RegisteredService> services = new ArrayList<>();
        for (Service service : listed) {
            if (service.template.equals(template)) {
                services.add(registered(ServiceKeys.query(service.settings.registry(), service.settings.kind(),
                        service.key), service.subscription));
            }
        }
        return services;
    }

    /** The service {@code query} asks for, with what {@code subscription} read of it. */
    static RegisteredService registered(ProviderQueryConfig query, Subscription subscription) {
        return new RegisteredService(query.interfaceName(), concrete(query.group()), concrete(query.version()),
                subscription.methods(), subscription.definition());
    }

    private static String concrete(String value) {
        return ProviderQueryConfig.ANY.equals(value) ? "" : value;
    }

    /** The services whose clusters are served now; from any thread. */
    List<DiscoveredService> services() {
        List<DiscoveredService> services = new ArrayList<>();
        for (Service service : listed) {
            ServiceTemplateConfig settings = service.settings;
            services.add(new DiscoveredService(service.key, settings.kind().configName(), settings.registry(),
                    clusterName(service.template, service.key), service.subscription.methods()));
        }
        return services;
    }

    /** Ends every service; on the control thread. */
    void close() {
        services.values().forEach(PerServiceClusters::end);
        services.clear();
        published = Map.of();
        listed = List.of();
        byCluster = Map.of();
    }
}
