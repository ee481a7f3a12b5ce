package io.tollgate.filters.localratelimit;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterFactory;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code local_rate_limit} stream filter: Envoy's local rate limit, token buckets kept in the
 * gateway's memory, one per chain (a listener's, or a route's override) or one per descriptor
 * value. Reads {@code max_tokens}, {@code tokens_per_fill}, {@code fill_interval},
 * {@code descriptor} and {@code max_descriptors}; see docs/filters.md.
 */
public final class LocalRateLimitFilterFactory implements StreamFilterFactory {

    /** The shortest {@code fill_interval}, as Envoy's. */
    static final Duration MIN_FILL_INTERVAL = Duration.ofMillis(50);

    @Override
    public String name() {
        return "local_rate_limit";
    }

    @Override
    public Set<String> keys() {
        return Set.of("max_tokens", "tokens_per_fill", "fill_interval", "descriptor", "max_descriptors");
    }

    @Override
    public StreamFilterConfig parse(ConfigNode node, StreamFilterConfig base) {
        long maxTokens = node.required("max_tokens").asLong(1, BucketShape.MAX_TOKENS);
        long tokensPerFill = node.longValue("tokens_per_fill", 1, 1, BucketShape.MAX_TOKENS);
        Duration fillInterval = node.required("fill_interval").asDuration();
        if (fillInterval.compareTo(MIN_FILL_INTERVAL) < 0) {
            throw node.child("fill_interval").error(fillInterval.toMillis() + "ms (expected: at least "
                    + MIN_FILL_INTERVAL.toMillis() + "ms)");
        }
        LocalRateLimitSettings.Descriptor descriptor = node.optional("descriptor")
                .map(LocalRateLimitFilterFactory::descriptor).orElse(null);
        if (descriptor == null && node.has("max_descriptors")) {
            throw node.child("max_descriptors").error("only with a descriptor");
        }
        int maxDescriptors = node.integer("max_descriptors", LocalRateLimitSettings.DEFAULT_MAX_DESCRIPTORS, 1,
                10_000_000);
        return base.withSettings(new LocalRateLimitSettings(maxTokens, tokensPerFill, fillInterval, descriptor,
                maxDescriptors));
    }

    private static LocalRateLimitSettings.Descriptor descriptor(ConfigNode n) {
        n.allowOnly(Set.of("client_ip", "header"));
        boolean clientIp = n.bool("client_ip", false);
        if (clientIp == n.has("header")) {
            throw n.error("must give exactly one of client_ip: true, header");
        }
        return clientIp ? LocalRateLimitSettings.Descriptor.CLIENT_IP
                : new LocalRateLimitSettings.Descriptor(n.string("header").toLowerCase(Locale.ROOT));
    }

    @Override
    public StreamFilter create(StreamFilterConfig config, FilterScope scope) {
        return new LocalRateLimitFilter(config.settings(LocalRateLimitSettings.class), scope);
    }
}
