package io.tollgate.discovery.sofa;

import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.discovery.ProviderLayout;
import io.tollgate.discovery.ProviderUrl;
import java.util.Set;

/**
 * SOFARPC's ZooKeeper registrations: {@code /sofa-rpc/{interface}/providers/{URL}}, one
 * ephemeral node per provider whose name is its URL-encoded URL
 * ({@code bolt://host:port?version=..&uniqueId=..&weight=..}) and whose data is one byte,
 * {@code 0x01} online or {@code 0x00} offline.
 */
public final class SofaLayout implements ProviderLayout {

    /** SOFARPC's weight when the URL gives none. */
    static final int DEFAULT_WEIGHT = 100;
    /** What SOFARPC writes as data for a provider taken offline. */
    private static final byte OFFLINE = 0;
    /** Parameters that differ per process: no use to subsets, one bitmap per host. */
    private static final Set<String> NOT_LABELS = Set.of("startTime", "pid", "methods");

    @Override
    public String providersPath(ProviderQueryConfig query) {
        return "/sofa-rpc/" + query.interfaceName() + "/providers";
    }

    @Override
    public EndpointConfig provider(ProviderQueryConfig query, String nodeName, byte[] data) {
        if (data != null && data.length > 0 && data[0] == OFFLINE) {
            return null;
        }
        return provider(query, ProviderUrl.parseEncoded(nodeName));
    }

    @Override
    public EndpointConfig provider(ProviderQueryConfig query, ProviderUrl url) {
        if (!query.protocols().contains(url.protocol())
                || !ProviderQueryConfig.matches(query.version(), url.parameters().get("version"))
                || !ProviderQueryConfig.matches(query.uniqueId(), url.parameters().get("uniqueId"))) {
            return null;
        }
        int weight = ProviderLayout.weight(url.intParameter("weight", DEFAULT_WEIGHT));
        if (weight <= 0) {
            return null;
        }
        return new EndpointConfig(url.host(), url.port(), weight, ProviderLayout.labels(url, NOT_LABELS));
    }
}
