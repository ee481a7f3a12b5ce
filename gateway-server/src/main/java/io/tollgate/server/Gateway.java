package io.tollgate.server;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.channel.EventLoopGroup;
import io.tollgate.admin.AdminContext;
import io.tollgate.admin.AdminServer;
import io.tollgate.admin.ListenerInfo;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.router.cluster.ClusterManager;
import io.tollgate.server.demo.DemoUpstream;
import io.tollgate.server.health.UpstreamHealth;
import io.tollgate.server.listener.DownstreamProtocols;
import io.tollgate.server.listener.Listener;
import io.tollgate.server.transport.Transport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running gateway: its event loops, listeners, admin API, optional demo upstream, metrics,
 * upstream health checking and the current configuration snapshot. {@link #start} returns once
 * every socket is bound and the gateway reports ready; {@link #close} stops everything.
 */
public final class Gateway implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Gateway.class);

    private final AtomicReference<Snapshot> snapshot;
    private final Transport transport;
    private final EventLoopGroup workers;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final GatewayMetrics metrics = new GatewayMetrics(registry);
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private volatile boolean ready;
    private DemoUpstream demo;
    private AdminServer admin;
    private UpstreamHealth health;

    private Gateway(GatewayConfig config) {
        this.snapshot = new AtomicReference<>(Snapshot.compile(config, metrics));
        this.transport = Transport.best();
        this.workers = transport.newGroup(config.eventLoops(), "tollgate-io");
    }

    /** Starts a gateway on a validated configuration. */
    public static Gateway start(GatewayConfig config) throws InterruptedException {
        Gateway gateway = new Gateway(config);
        try {
            gateway.bind();
        } catch (RuntimeException | InterruptedException e) {
            gateway.close();
            throw e;
        }
        return gateway;
    }

    private void bind() throws InterruptedException {
        GatewayConfig config = snapshot.get().config();
        if (config.demoUpstream().isPresent()) {
            demo = DemoUpstream.start(config.demoUpstream().get(), workers, transport);
        }
        health = UpstreamHealth.start(snapshot.get(), workers, transport, metrics);
        DownstreamProtocols protocols = new DownstreamProtocols(snapshot::get, transport, metrics);
        for (ListenerConfig listenerConfig : config.listeners()) {
            listeners.add(Listener.bind(listenerConfig, workers, transport, protocols));
        }
        admin = AdminServer.start(config.admin(), new Context());
        ready = true;
        log.info("gateway ready; admin API on {}:{}", config.admin().address(), admin.port());
    }

    /** The current configuration snapshot. */
    public Snapshot snapshot() {
        return snapshot.get();
    }

    /** The process's meters. */
    public GatewayMetrics metrics() {
        return metrics;
    }

    /** The port a listener is bound to; MUST name a configured listener. */
    public int port(String listenerName) {
        return listeners.stream().filter(l -> l.config().name().equals(listenerName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("listener: " + listenerName))
                .port();
    }

    /** The port the admin API is bound to. */
    public int adminPort() {
        return admin.port();
    }

    @Override
    public void close() {
        ready = false;
        if (admin != null) {
            admin.close();
        }
        for (Listener listener : listeners) {
            listener.close();
        }
        if (demo != null) {
            demo.close();
        }
        if (health != null) {
            health.close();
        }
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        registry.close();
        log.info("gateway stopped");
    }

    /** What the admin API sees of this gateway. */
    private final class Context implements AdminContext {
        @Override
        public GatewayConfig config() {
            return snapshot.get().config();
        }

        @Override
        public ClusterManager clusters() {
            return snapshot.get().clusters();
        }

        @Override
        public List<ListenerInfo> listeners() {
            List<ListenerInfo> infos = new ArrayList<>();
            for (Listener listener : listeners) {
                ListenerConfig config = listener.config();
                infos.add(new ListenerInfo(config.name(), config.address(), listener.port(), config.protocols()));
            }
            return infos;
        }

        @Override
        public PrometheusMeterRegistry prometheus() {
            return registry;
        }

        @Override
        public boolean ready() {
            return ready;
        }
    }
}
