package io.tollgate.xds;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tollgate.core.metrics.MetricNames;
import java.util.EnumMap;
import java.util.Map;

/** The meters of the xDS client: responses acknowledged and refused per type, streams that ended. */
final class XdsMeters {

    private final Map<ResourceType, Counter> acks = new EnumMap<>(ResourceType.class);
    private final Map<ResourceType, Counter> nacks = new EnumMap<>(ResourceType.class);
    private final Counter streamsEnded;

    XdsMeters(MeterRegistry registry) {
        for (ResourceType type : ResourceType.values()) {
            acks.put(type, counter(registry, type, "ack"));
            nacks.put(type, counter(registry, type, "nack"));
        }
        streamsEnded = Counter.builder(MetricNames.XDS_STREAM_ENDED).register(registry);
    }

    private static Counter counter(MeterRegistry registry, ResourceType type, String result) {
        return Counter.builder(MetricNames.XDS_RESPONSE).tag(MetricNames.TAG_TYPE, type.kind())
                .tag(MetricNames.TAG_RESULT, result).register(registry);
    }

    void ack(ResourceType type) {
        acks.get(type).increment();
    }

    void nack(ResourceType type) {
        nacks.get(type).increment();
    }

    void streamEnded() {
        streamsEnded.increment();
    }
}
