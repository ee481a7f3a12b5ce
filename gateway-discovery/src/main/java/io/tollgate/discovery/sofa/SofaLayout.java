package io.tollgate.discovery.sofa;

import io.tollgate.core.config.EndpointConfig;
import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.discovery.ProviderLayout;
import io.tollgate.discovery.ProviderUrl;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * SOFARPC's ZooKeeper registrations: {@code /sofa-rpc/{interface}/providers/{URL}}, one
 * ephemeral node per provider whose name is its URL-encoded URL
 * ({@code bolt://host:port?version=..&uniqueId=..&weight=..}) and whose data is one byte,
 * {@code 0x01} online or {@code 0x00} offline. A provider registered with SOFARPC's warmup
 * parameters ({@code startTime}, {@code warmupTime}, {@code warmupWeight}, all three) takes its
 * {@code warmupWeight} until {@code startTime + warmupTime}, then its {@code weight}, as SOFARPC's
 * own consumers weigh it; the layout notes when the next warmup ends so that its user makes the
 * hosts again then. One per subscription, used on the control thread.
 */
public final class SofaLayout implements ProviderLayout {

    /** SOFARPC's weight when the URL gives none. */
    static final int DEFAULT_WEIGHT = 100;
    /** What SOFARPC writes as data for a provider taken offline. */
    private static final byte OFFLINE = 0;
    /** Parameters that differ per process: no use to subsets, one bitmap per host. */
    private static final Set<String> NOT_LABELS = Set.of("startTime", "pid", "methods");

    private final LongSupplier clock;
    /** When the first warmup noted since {@link #forgetRamps} ends (ms since the epoch); MAX_VALUE when none. */
    private long warmingUntil = Long.MAX_VALUE;

    /** SOFARPC's layout, warmups judged with {@code clock} (ms since the epoch). */
    public SofaLayout(LongSupplier clock) {
        this.clock = clock;
    }

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
        weight = warmed(url, weight);
        if (weight <= 0) {
            // warmupWeight 0: no traffic until the warmup ends
            return null;
        }
        return new EndpointConfig(url.host(), url.port(), weight, ProviderLayout.labels(url, NOT_LABELS));
    }

    /** {@code weight}, or the warmup's while the provider warms up (noting when that ends). */
    private int warmed(ProviderUrl url, int weight) {
        long start = url.longParameter("startTime", 0);
        long warmup = url.longParameter("warmupTime", 0);
        int warmupWeight = url.intParameter("warmupWeight", -1);
        if (start <= 0 || warmup <= 0 || warmupWeight < 0) {
            return weight;
        }
        long end = start + warmup;
        if (clock.getAsLong() > end) {
            return weight;
        }
        warmingUntil = Math.min(warmingUntil, end);
        return ProviderLayout.weight(warmupWeight);
    }

    @Override
    public long nextRampMillis() {
        return warmingUntil == Long.MAX_VALUE ? -1 : Math.max(0, warmingUntil - clock.getAsLong()) + 1;
    }

    @Override
    public void forgetRamps() {
        warmingUntil = Long.MAX_VALUE;
    }
}
