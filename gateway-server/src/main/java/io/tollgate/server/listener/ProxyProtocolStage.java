package io.tollgate.server.listener;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.tollgate.core.config.ProxyProtocolConfig;
import io.tollgate.core.metrics.ListenerMetrics;
import io.tollgate.core.metrics.MetricNames;
import io.tollgate.server.proxyprotocol.ProxyHeader;
import io.tollgate.server.transport.PipelineNames;
import java.net.InetSocketAddress;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A listener's {@code proxy_protocol}: before anything else is installed on a new connection,
 * decides by its peer's address whether it may carry a PROXY protocol header. From a trusted
 * source, a {@link ProxyProtocolReader} reads the header first and installs the rest after it;
 * from another source, a required header refuses the connection and an optional one is not looked
 * for. Counts every connection's outcome; shared by the listener's event loops.
 */
final class ProxyProtocolStage {

    private static final Logger log = LoggerFactory.getLogger(ProxyProtocolStage.class);

    private final ProxyProtocolConfig config;
    private final ListenerMetrics metrics;
    private final Counter v1;
    private final Counter v2;
    private final Counter local;
    private final Counter unknown;
    private final Counter absent;
    private final Counter untrusted;

    private ProxyProtocolStage(ProxyProtocolConfig config, ListenerMetrics metrics, MeterRegistry registry,
            String listener) {
        this.config = config;
        this.metrics = metrics;
        this.v1 = counter(registry, listener, "v1");
        this.v2 = counter(registry, listener, "v2");
        this.local = counter(registry, listener, "local");
        this.unknown = counter(registry, listener, "unknown");
        this.absent = counter(registry, listener, "absent");
        this.untrusted = counter(registry, listener, "untrusted");
    }

    /** The stage of a listener with {@code config}. */
    static ProxyProtocolStage of(ProxyProtocolConfig config, ListenerMetrics metrics, MeterRegistry registry,
            String listener) {
        return new ProxyProtocolStage(config, metrics, registry, listener);
    }

    private static Counter counter(MeterRegistry registry, String listener, String result) {
        return registry.counter(MetricNames.DOWNSTREAM_CX_PROXY_PROTOCOL,
                Tags.of(MetricNames.TAG_LISTENER, listener, "result", result));
    }

    /**
     * Sets up {@code ch}, a connection just admitted: {@code rest} installs what serves it, at once
     * or once its header is read; a connection refused is closed and counted.
     */
    void begin(Channel ch, Consumer<ChannelPipeline> rest) {
        if (trusted(ch)) {
            ch.pipeline().addLast(PipelineNames.PROXY_PROTOCOL, new ProxyProtocolReader(this, rest));
        } else if (config.mode() == ProxyProtocolConfig.Mode.REQUIRED) {
            log.debug("{}: a PROXY protocol header is required from a trusted source only, closing", ch.remoteAddress());
            rejected("proxy_protocol_untrusted");
            ch.close();
        } else {
            untrusted.increment();
            rest.accept(ch.pipeline());
        }
    }

    private boolean trusted(Channel ch) {
        return ch.remoteAddress() instanceof InetSocketAddress peer && peer.getAddress() != null
                && config.trusts(peer.getAddress());
    }

    boolean required() {
        return config.mode() == ProxyProtocolConfig.Mode.REQUIRED;
    }

    long timeoutNanos() {
        return config.timeout().toNanos();
    }

    ListenerMetrics metrics() {
        return metrics;
    }

    /** Counts a connection refused for {@code reason}, one of {@code proxy_protocol_*}. */
    void rejected(String reason) {
        metrics.connectionRejected(reason);
    }

    /** Counts a connection from a trusted source that sent no header where one is optional. */
    void absent() {
        absent.increment();
    }

    /** Counts a header read. */
    void read(ProxyHeader header) {
        if (header.local()) {
            local.increment();
        } else if (!header.carriesAddress()) {
            unknown.increment();
        } else if (header.version() == 1) {
            v1.increment();
        } else {
            v2.increment();
        }
    }
}
