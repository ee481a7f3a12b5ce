package io.tollgate.discovery.dubbo;

import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.discovery.ProviderLayout;
import io.tollgate.discovery.ProviderUrl;
import java.util.Set;

/**
 * Apache Dubbo's interface-level registrations: {@code /dubbo/{interface}/providers/{URL}},
 * one ephemeral node per provider whose name is its URL-encoded URL
 * ({@code dubbo://host:port/interface?group=..&version=..&weight=..}); the data is unused.
 */
public final class DubboLayout implements ProviderLayout {

    /** Dubbo's weight when the URL gives none. */
    static final int DEFAULT_WEIGHT = 100;
    /** The version Dubbo gives a service or call that names none. */
    private static final String NO_VERSION = "0.0.0";
    /** Parameters that differ per process or list methods: no use to subsets, one bitmap per host. */
    private static final Set<String> NOT_LABELS = Set.of("methods", "pid", "timestamp");

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
        return new EndpointConfig(url.host(), url.port(), weight, ProviderLayout.labels(url, NOT_LABELS));
    }
}
