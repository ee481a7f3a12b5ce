package io.tollgate.xds.transport;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tollgate.core.metrics.MetricNames;
import io.tollgate.xds.translation.ResourceType;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The meters of the xDS client: responses acknowledged and refused per type, how long accepted
 * ones took to apply, streams that ended.
 */
final class XdsMeters {

    private final Map<ResourceType, Counter> acks = new EnumMap<>(ResourceType.class);
    private final Map<ResourceType, Counter> nacks = new EnumMap<>(ResourceType.class);
    private final Map<ResourceType, Timer> updates = new EnumMap<>(ResourceType.class);
    private final Counter streamsEnded;

    XdsMeters(MeterRegistry registry) {
        for (ResourceType type : ResourceType.values()) {
            acks.put(type, counter(registry, type, "ack"));
            nacks.put(type, counter(registry, type, "nack"));
            updates.put(type, Timer.builder(MetricNames.XDS_UPDATE_DURATION).tag(MetricNames.TAG_TYPE, type.kind())
                    .register(registry));
        }
        streamsEnded = Counter.builder(MetricNames.XDS_STREAM_ENDED).register(registry);
    }

    private static Counter counter(MeterRegistry registry, ResourceType type, String result) {
        return Counter.builder(MetricNames.XDS_RESPONSE).tag(MetricNames.TAG_TYPE, type.kind())
                .tag(MetricNames.TAG_RESULT, result).register(registry);
    }

    /** An accepted response of {@code type}, applied {@code nanos} after its receipt. */
    void ack(ResourceType type, long nanos) {
        acks.get(type).increment();
        updates.get(type).record(nanos, TimeUnit.NANOSECONDS);
    }

    void nack(ResourceType type) {
        nacks.get(type).increment();
    }

    void streamEnded() {
        streamsEnded.increment();
    }
}
