package io.tollgate.server.discovery;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.tollgate.discovery.RegistryClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Each registry client's state as meters ({@code /stats}, Prometheus), tagged {@code registry}:
 * {@code tollgate.registry.connected} (1 or 0), {@code .subscriptions}, {@code .events} and
 * {@code .errors} (registrations that could not be read), {@code .metadata_calls} and
 * {@code .metadata_failures} (Dubbo MetadataService calls). Read from the client when scraped.
 * Beside them, untagged, the timer {@code tollgate.registry.change_to_serving}: from a registry
 * event's receipt (ZooKeeper) to the configuration serving the hosts it changed.
 */
final class RegistryMeters {

    private static final Duration[] SERVED_BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(2),
        Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(20), Duration.ofMillis(50),
        Duration.ofMillis(75), Duration.ofMillis(100), Duration.ofMillis(150), Duration.ofMillis(200),
        Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(5)};

    private final MeterRegistry registry;
    private final Map<RegistryClient, List<Meter>> meters = new IdentityHashMap<>();
    private final Timer served;

    RegistryMeters(MeterRegistry registry) {
        this.registry = registry;
        this.served = Timer.builder("tollgate.registry.change_to_serving").serviceLevelObjectives(SERVED_BUCKETS)
                .description("time from a registry event's receipt to the configuration serving its hosts")
                .register(registry);
    }

    /** Records that a registry change received {@code nanos} ago serves now. */
    void served(long nanos) {
        served.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Meters for exactly {@code clients}: those of clients gone are removed. */
    void follow(List<RegistryClient> clients) {
        meters.entrySet().removeIf(entry -> {
            boolean gone = !clients.contains(entry.getKey());
            if (gone) {
                entry.getValue().forEach(registry::remove);
            }
            return gone;
        });
        for (RegistryClient client : clients) {
            meters.computeIfAbsent(client, this::register);
        }
    }

    private List<Meter> register(RegistryClient client) {
        Tags tags = Tags.of("registry", client.status().name());
        List<Meter> registered = new ArrayList<>();
        registered.add(Gauge.builder("tollgate.registry.connected", client, c -> c.status().connected() ? 1 : 0)
                .tags(tags).description("1 while connected to the registry").register(registry));
        registered.add(Gauge.builder("tollgate.registry.subscriptions", client, c -> c.status().subscriptions())
                .tags(tags).description("services watched in the registry").register(registry));
        registered.add(FunctionCounter.builder("tollgate.registry.events", client, c -> c.status().events())
                .tags(tags).description("registry events received").register(registry));
        registered.add(FunctionCounter.builder("tollgate.registry.errors", client, c -> c.status().errors())
                .tags(tags).description("registrations that could not be read").register(registry));
        registered.add(FunctionCounter.builder("tollgate.registry.metadata_calls", client,
                c -> c.status().metadataCalls()).tags(tags)
                .description("calls of Dubbo providers' MetadataService").register(registry));
        registered.add(FunctionCounter.builder("tollgate.registry.metadata_failures", client,
                c -> c.status().metadataFailures()).tags(tags)
                .description("calls of Dubbo providers' MetadataService that failed").register(registry));
        return registered;
    }
}
