package io.tollgate.server.discovery;

import io.micrometer.core.instrument.MeterRegistry;
import io.tollgate.admin.DiscoveredService;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.core.config.RegistryConfig;
import io.tollgate.discovery.RegistryClient;
import io.tollgate.discovery.RegistryStatus;
import io.tollgate.discovery.Subscription;
import io.tollgate.discovery.registry.RegistryClients;
import io.tollgate.server.control.ControlThread;
import io.tollgate.server.rpc.ServiceClusters;
import io.tollgate.server.rpccall.PublishedTypes;
import io.tollgate.server.rpccall.RegisteredService;
import io.tollgate.server.rpccall.ServiceMethods;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clusters whose hosts come from service registries (a cluster's {@code discovery:}): keeps
 * one registry client per configured registry and one subscription per such cluster, and makes
 * each configuration the gateway applies carry the providers known now as those clusters'
 * endpoints. A change in a registry asks the gateway to apply its configuration again (the path
 * an xDS endpoint push takes): the clusters take the new list in place, in proportion to what
 * changed, and new hosts get their health checks. The clusters made per service from a template
 * are kept by {@link PerServiceClusters}. Confined to the control thread, apart from
 * {@link #statuses()} and {@link #serviceClusters()}.
 */
public final class DiscoveredClusters implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DiscoveredClusters.class);

    private final ControlThread control;
    private final Supplier<CompletableFuture<Void>> republish;
    private final PerServiceClusters perService;
    private final ScheduledFuture<?> unusedCheck;
    private final RegistryMeters meters;
    private final Map<String, Client> clients = new HashMap<>();
    private final Map<String, Watch> watches = new HashMap<>();
    private final CompletableFuture<Void> firstSync = new CompletableFuture<>();
    private volatile List<RegistryClient> published = List.of();
    private volatile Map<String, Watch> named = Map.of();
    private boolean republishQueued;
    /** When the oldest registry event the queued republication carries was received; 0: none. */
    private long unservedSinceNanos;
    private boolean followed;

    /**
     * Discovers on {@code control}, where {@code republish} applies the gateway's configuration
     * again (through {@link #withProviders}) whenever the providers changed, and returns what
     * completes once the new hosts had their first health verdicts.
     */
    public DiscoveredClusters(ControlThread control, MeterRegistry registry,
            Supplier<CompletableFuture<Void>> republish) {
        this.control = control;
        this.meters = new RegistryMeters(registry);
        this.republish = republish;
        this.perService = new PerServiceClusters(control, this::queueRepublication, System::nanoTime);
        this.unusedCheck = control.every(1, TimeUnit.SECONDS, perService::dropUnused);
    }

    /** Where event loops find the clusters made per service from templates. */
    public ServiceClusters serviceClusters() {
        return perService;
    }

    /**
     * Where event loops find the methods the registry published for the service of a discovered
     * cluster, named or made per service: read from the cluster's subscription.
     */
    public ServiceMethods serviceMethods() {
        return new ServiceMethods() {
            @Override
            public PublishedTypes methods(String cluster, String service) {
                Watch watch = named.get(cluster);
                if (watch != null) {
                    return watch.query.interfaceName().equals(service) ? watch.types.of(watch.subscription)
                            : PublishedTypes.NONE;
                }
                return perService.published(cluster);
            }

            @Override
            public List<RegisteredService> services(String cluster) {
                Watch watch = named.get(cluster);
                return watch != null ? List.of(PerServiceClusters.registered(watch.query, watch.subscription))
                        : perService.registered(cluster);
            }
        };
    }

    /** A registry's client and the settings it was started with. */
    private record Client(RegistryConfig config, RegistryClient client) {
    }

    /** One discovered cluster's subscription and the providers it last heard of. */
    private static final class Watch {
        private final ProviderQueryConfig query;
        private final RegistryClient client;
        private Subscription subscription;
        private List<EndpointConfig> providers = List.of();
        private boolean synced;
        private final PublishedTypesCache types = new PublishedTypesCache();

        private Watch(ProviderQueryConfig query, RegistryClient client) {
            this.query = query;
            this.client = client;
        }
    }

    /**
     * {@code config} with the providers known now as the endpoints of its discovered clusters
     * (a cluster whose query changed gets none until its new subscription reports).
     */
    public GatewayConfig withProviders(GatewayConfig config) {
        Map<String, ProviderQueryConfig> queries = config.discovery().clusters();
        if (queries.isEmpty() && config.discovery().templates().isEmpty()) {
            return config;
        }
        List<ClusterConfig> clusters = new ArrayList<>(config.clusters().size());
        for (ClusterConfig cluster : config.clusters()) {
            ProviderQueryConfig query = queries.get(cluster.name());
            Watch watch = query == null ? null : watches.get(cluster.name());
            boolean current = watch != null && watch.query.equals(query) && registryUnchanged(config, watch);
            clusters.add(query == null ? cluster : cluster.withEndpoints(current ? watch.providers : List.of()));
        }
        perService.addClusters(config, clusters);
        return config.with(config.listeners(), clusters);
    }

    private boolean registryUnchanged(GatewayConfig config, Watch watch) {
        Client client = clients.get(watch.query.registry());
        return client != null && client.client == watch.client
                && config.discovery().registry(watch.query.registry()).filter(client.config::equals).isPresent();
    }

    /**
     * Follows the applied {@code config}: starts the clients of new or changed registries and the
     * subscriptions of new or changed discovered clusters, and stops those no longer configured.
     * Returns at once: clients connect in the background.
     */
    public void follow(GatewayConfig config) {
        Map<String, RegistryConfig> registries = new HashMap<>();
        config.discovery().registries().forEach(r -> registries.put(r.name(), r));
        clients.entrySet().removeIf(entry -> {
            boolean gone = !entry.getValue().config.equals(registries.get(entry.getKey()));
            if (gone) {
                closeInBackground(entry.getValue().client);
            }
            return gone;
        });
        registries.forEach((name, registry) -> clients.computeIfAbsent(name,
                n -> new Client(registry, RegistryClients.start(registry, control))));
        Map<String, ProviderQueryConfig> queries = config.discovery().clusters();
        watches.entrySet().removeIf(entry -> {
            Watch watch = entry.getValue();
            Client client = clients.get(watch.query.registry());
            boolean gone = !watch.query.equals(queries.get(entry.getKey())) || client == null
                    || client.client != watch.client;
            if (gone) {
                watch.subscription.close();
            }
            return gone;
        });
        queries.forEach((cluster, query) -> watches.computeIfAbsent(cluster, c -> subscribe(c, query)));
        perService.follow(config, name -> {
            Client client = clients.get(name);
            return client == null ? null : client.client;
        });
        published = clients.values().stream().map(Client::client).toList();
        named = Map.copyOf(watches);
        meters.follow(clients.values().stream().map(Client::client).toList());
        followed = true;
        completeFirstSyncIfDone();
    }

    private Watch subscribe(String cluster, ProviderQueryConfig query) {
        Watch watch = new Watch(query, clients.get(query.registry()).client);
        watch.subscription = watch.client.subscribe(query, (providers, synced, changedAt) -> {
            watch.providers = providers;
            watch.synced = synced;
            log.debug("cluster {}: {} providers of {} in registry {}", cluster, providers.size(), query.interfaceName(),
                    query.registry());
            queueRepublication(changedAt);
        });
        return watch;
    }

    /**
     * Applies the configuration again soon, once for every change asked for before it runs;
     * {@code changedAt} is when the registry event behind the change was received (0: none), and
     * the time from the oldest such event to the new hosts published is recorded.
     */
    private void queueRepublication(long changedAt) {
        if (changedAt != 0 && (unservedSinceNanos == 0 || changedAt - unservedSinceNanos < 0)) {
            unservedSinceNanos = changedAt;
        }
        if (!republishQueued) {
            republishQueued = true;
            control.execute(() -> {
                republishQueued = false;
                long since = unservedSinceNanos;
                unservedSinceNanos = 0;
                perService.applied(republish.get());
                if (since != 0) {
                    meters.served(System.nanoTime() - since);
                }
                completeFirstSyncIfDone();
            });
        }
    }

    private void completeFirstSyncIfDone() {
        if (followed && !republishQueued && watches.values().stream().allMatch(w -> w.synced)) {
            firstSync.complete(null);
        }
    }

    /**
     * Completes once every subscription of the first configuration followed has read its
     * registry whole and that state was applied.
     */
    public CompletableFuture<Void> firstSync() {
        return firstSync;
    }

    /** The services whose providers make clusters' hosts, named ones first; from any thread. */
    public List<DiscoveredService> services() {
        List<DiscoveredService> services = new ArrayList<>();
        named.forEach((cluster, watch) -> services.add(new DiscoveredService(ServiceKeys.of(watch.query),
                watch.query.kind().configName(), watch.query.registry(), cluster, watch.subscription.methods())));
        services.sort(Comparator.comparing(DiscoveredService::cluster));
        services.addAll(perService.services());
        return services;
    }

    /** The state of every registry client; from any thread. */
    public List<RegistryStatus> statuses() {
        return published.stream().map(RegistryClient::status).toList();
    }

    private static void closeInBackground(RegistryClient client) {
        Thread closer = new Thread(client::close, "tollgate-registry-close");
        closer.setDaemon(true);
        closer.start();
    }

    /** Stops every subscription and closes every client; waits for the closes. */
    @Override
    public void close() {
        unusedCheck.cancel(false);
        perService.close();
        watches.values().forEach(w -> w.subscription.close());
        watches.clear();
        clients.values().forEach(c -> c.client.close());
        clients.clear();
        published = List.of();
        meters.follow(List.of());
    }
}
