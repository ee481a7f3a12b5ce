package io.tollgate.discovery.dubbo;

import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.discovery.ProviderLayout;
import io.tollgate.discovery.ProviderUrl;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Apache Dubbo's interface-level registrations: {@code /dubbo/{interface}/providers/{URL}},
 * one ephemeral node per provider whose name is its URL-encoded URL
 * ({@code dubbo://host:port/interface?group=..&version=..&weight=..}); the data is unused. Hosts
 * of application-level instances are made by the same rules, from their MetadataInfo. A host's
 * weight follows Dubbo's warmup ({@link DubboWarmup}); the layout notes the warmups under way so
 * that its user makes the hosts again in time. One per subscription, used on the control thread.
 */
public final class DubboLayout implements ProviderLayout {

    /** Dubbo's weight when the URL gives none. */
    static final int DEFAULT_WEIGHT = 100;
    /** The version Dubbo gives a service or call that names none. */
    private static final String NO_VERSION = "0.0.0";
    /** Parameters that differ per process or list methods: no use to subsets, one bitmap per host. */
    private static final Set<String> NOT_LABELS = Set.of("methods", "pid", "timestamp");

    private final LongSupplier clock;
    /** When the last warmup noted ends (ms since the epoch), 0 when none. */
    private long rampingUntil;
    private long rampStepMillis = Long.MAX_VALUE;

    /** Dubbo's layout, warmups computed with {@code clock} (ms since the epoch). */
    public DubboLayout(LongSupplier clock) {
        this.clock = clock;
    }

    /**
     * A service version as Dubbo means it: {@value #NO_VERSION}, what a consumer that names none
     * sends, is no version; null stays null.
     */
    public static String version(String version) {
        return NO_VERSION.equals(version) ? "" : version;
    }

    @Override
    public String providersPath(ProviderQueryConfig query) {
        return "/dubbo/" + query.interfaceName() + "/providers";
    }

    /**
     * {@code /dubbo/metadata/{interface}[/{version}][/{group}]/provider/{application}}, where Dubbo
     * writes a provider's service definition (its registry doubling as metadata report).
     */
    @Override
    public String definitionPath(ProviderQueryConfig query, EndpointConfig provider) {
        String application = provider.labels().get("application");
        if (application == null) {
            return null;
        }
        String version = version(provider.labels().getOrDefault("version", ""));
        String group = provider.labels().getOrDefault("group", "");
        return "/dubbo/metadata/" + query.interfaceName() + (version.isEmpty() ? "" : "/" + version)
                + (group.isEmpty() ? "" : "/" + group) + "/provider/" + application;
    }

    @Override
    public EndpointConfig provider(ProviderQueryConfig query, String nodeName, byte[] data) {
        return provider(query, ProviderUrl.parseEncoded(nodeName));
    }

    /**
     * The hosts {@code instance} (registered at application level) gives {@code query}'s service:
     * one per service of its MetadataInfo that is the queried interface, group, version and
     * protocol, at the instance's address and its port for the protocol. The service's parameters, and
     * the instance's metadata other than Dubbo's own {@code dubbo.*} keys, become labels.
     */
    public List<EndpointConfig> providers(ProviderQueryConfig query, DubboInstance instance, MetadataInfo metadata) {
        List<EndpointConfig> providers = new ArrayList<>(1);
        for (MetadataInfo.ServiceInfo service : metadata.services()) {
            if (!query.interfaceName().equals(service.name())) {
                continue;
            }
            Map<String, String> parameters = new LinkedHashMap<>(service.parameters());
            putIfGiven(parameters, "group", service.group());
            putIfGiven(parameters, "version", service.version());
            putIfGiven(parameters, "application", metadata.application());
            if (instance.registeredMillis() > 0) {
                // the warmup's start when the service gives none
                parameters.putIfAbsent("timestamp", Long.toString(instance.registeredMillis()));
            }
            instance.metadata().forEach((key, value) -> {
                if (!key.startsWith("dubbo.")) {
                    parameters.putIfAbsent(key, value);
                }
            });
            // the instance's port for the protocol: instances of one revision share one MetadataInfo
            int port = instance.endpointPort(service.protocol());
            EndpointConfig provider = provider(query, new ProviderUrl(service.protocol(), instance.address(), port,
                    service.path().isEmpty() ? service.name() : service.path(), parameters));
            if (provider != null) {
                providers.add(provider);
            }
        }
        return providers;
    }

    private static void putIfGiven(Map<String, String> parameters, String key, String value) {
        if (!value.isEmpty()) {
            parameters.putIfAbsent(key, value);
        }
    }

    /**
     * The host of a provider {@code url} (from an interface-level node, or made of an application-level
     * instance), or null when it is not one of {@code query}'s or takes no traffic.
     */
    @Override
    public EndpointConfig provider(ProviderQueryConfig query, ProviderUrl url) {
        if (!query.protocols().contains(url.protocol())
                || !query.interfaceName().equals(url.parameter("interface", url.path()))
                || !ProviderQueryConfig.matches(query.group(), url.parameters().get("group"))
                || !ProviderQueryConfig.matches(query.version(), version(url.parameters().get("version")))
                || "true".equals(url.parameters().get("disabled"))
                || "false".equals(url.parameters().get("enabled"))) {
            return null;
        }
        int weight = ProviderLayout.weight(url.intParameter("weight", DEFAULT_WEIGHT));
        if (weight <= 0) {
            return null;
        }
        return new EndpointConfig(url.host(), url.port(), warmed(url, weight), ProviderLayout.labels(url, NOT_LABELS));
    }

    /** {@code weight} as Dubbo's warmup makes it now, noting when it is to be computed again. */
    private int warmed(ProviderUrl url, int weight) {
        long start = url.longParameter("timestamp", 0);
        long warmup = url.longParameter("warmup", DubboWarmup.DEFAULT_WARMUP_MILLIS);
        int warmed = DubboWarmup.weight(weight, start, warmup, clock.getAsLong());
        if (warmed < weight) {
            rampingUntil = Math.max(rampingUntil, start + warmup);
            rampStepMillis = Math.min(rampStepMillis, DubboWarmup.step(warmup));
        }
        return warmed;
    }

    /**
     * How long until a host made since {@link #forgetRamps} is to have its weight computed again
     * (its warmup goes on), or -1 when none is warming up.
     */
    @Override
    public long nextRampMillis() {
        return rampingUntil > clock.getAsLong() ? rampStepMillis : -1;
    }

    /** Forgets the warmups noted so far, before the hosts are all made again. */
    @Override
    public void forgetRamps() {
        rampingUntil = 0;
        rampStepMillis = Long.MAX_VALUE;
    }
}
